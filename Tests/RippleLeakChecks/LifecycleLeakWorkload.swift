import RippleLifecycle

@MainActor
enum LifecycleLeakWorkload {
    /// A controller with its own registry, global and host actions, a once action and a visible stack, navigated,
    /// then dropped.
    static func run() {
        let globals = LifecycleActions()
        let stack = VisibleStack()
        stack.install(in: globals)
        globals.register(BlockLifecycleAction(on: [.didAppear, .didDisappear]) { _, _, _ in })
        let controller = LifecycleController(globals: globals)
        controller.registerLifecycleAction(OnceLifecycleAction { _, _ in })
        controller.registerLifecycleAction(BlockLifecycleAction(on: Set(LifecyclePhase.allCases)) { _, _, _ in })
        controller.viewDidLoad()
        for animated in [false, true] {
            LifecycleActions.dispatch(.willAppear(animated: animated), to: controller)
            LifecycleActions.dispatch(.didAppear(animated: animated), to: controller)
            LifecycleActions.dispatch(.willDisappear(animated: animated), to: controller)
            LifecycleActions.dispatch(.didDisappear(animated: animated), to: controller)
        }
    }
}
