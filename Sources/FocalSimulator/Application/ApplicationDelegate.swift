/// The object that sets a simulated ``Application`` up, like `UIApplicationDelegate`.
///
/// Make the delegate a ``Responder`` subclass to put it at the end of the responder chain. The application keeps its
/// delegate alive; a delegate should hold the application weakly, if at all.
public protocol ApplicationDelegate: AnyObject {
    /// Called by ``Application/launch()``: create a ``Window``, give it a root view controller and call
    /// ``Window/makeKeyAndVisible()``.
    func applicationDidFinishLaunching(_ application: Application)
}
