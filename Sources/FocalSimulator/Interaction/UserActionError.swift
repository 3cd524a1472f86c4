/// Why a ``User`` action could not be performed.
public enum UserActionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The view is not in a shown window, or not visible on screen.
    case viewNotOnScreen
    /// Nothing on screen takes a touch where the view is (every view there ignores touches).
    case viewNotHittable
    /// The scroll view cannot be scrolled (``ScrollView/isScrollEnabled`` is `false`).
    case notScrollable
    /// There is no item at this index path.
    case itemOutOfRange(IndexPath)
    /// The key window has no first responder that accepts typing.
    case noTextInput
    /// No navigation controller on screen has a controller to go back to.
    case nothingToGoBackTo
    /// No tab bar controller is on screen.
    case noTabBarController
    /// The tab does not exist, or the tab bar controller's delegate refused it.
    case tabUnavailable(Int)
    /// Nothing is presented in the key window.
    case nothingPresented

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .viewNotOnScreen: "the view is not on screen"
        case .viewNotHittable: "nothing on screen takes a touch where the view is"
        case .notScrollable: "the scroll view cannot be scrolled"
        case .itemOutOfRange(let indexPath): "there is no item at \(indexPath)"
        case .noTextInput: "nothing accepts typing"
        case .nothingToGoBackTo: "there is no screen to go back to"
        case .noTabBarController: "there is no tab bar on screen"
        case .tabUnavailable(let index): "tab \(index) cannot be selected"
        case .nothingPresented: "nothing is presented"
        }
    }
}
