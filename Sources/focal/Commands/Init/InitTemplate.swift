/// The tasks directory `focal init` writes: a task file, a namespace file, a scenario
/// with its expected results, the TypeScript declarations of the task API and the
/// jsconfig.json that makes an editor (or `tsc -p jsconfig.json`) read them.
///
/// The files are `Sources/focal/Template/`, compiled into the binary; the repository's
/// `tasks/focal.d.ts` is a link to the template's, so the declarations have one source.
enum InitTemplate {
    /// Each file's path relative to the new directory, and its bytes, in writing order.
    static let files: [(path: String, bytes: [UInt8])] = [
        ("index.js", PackageResources.index_js),
        ("Shop/Detail.js", PackageResources.Detail_js),
        ("scenarios/shop.yaml", PackageResources.shop_yaml),
        ("jsconfig.json", PackageResources.jsconfig_json),
        ("focal.d.ts", PackageResources.focal_d_ts),
    ]
}
