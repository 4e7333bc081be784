import Testing

@Suite("ripple-tour: the app section (a search screen and a form on main-actor view models)")
struct AppTourTests {
    @Test func searchScreenAndFormRunEndToEnd() async {
        let lines = await tourLines("app")
        expectInOrder([
            "[200 ms]   typed \"riv\"                        state: idle",
            "[500 ms]   a pause: the request starts        state: loading",
            "[700 ms]   its answer                         state: loaded [\"river\", \"rivet\"]",
            "[1500 ms]  typed \"rai\", settled               state: loading",
            "[2500 ms]  its answer                         state: loaded [\"rain\"]",
            "[3500 ms]  typed \"sw\", three attempts failed  state: failed \"The search failed.\"",
            "[8800 ms]  typed \"swi\", no answer in 5 s      state: failed \"The search took too long.\"",
            // Quick typing made one request; the stale "ra" was cancelled when "rai" settled; retries; the timeout.
            "  service: start \"riv\" at [500 ms]",
            "  service: start \"ra\" at [1000 ms]",
            "  service: cancel \"ra\" at [1500 ms]",
            "  service: start \"rai\" at [1500 ms]",
            "  service: start \"sw\" at [2800 ms]",
            "  service: start \"sw\" at [3000 ms]",
            "  service: start \"sw\" at [3200 ms]",
            "  service: cancel \"swi\" at [8800 ms]",
            // Set one by one, `valid` is heard three times; in a batch, once.
            "canSubmit: false (deliveries: 1)",
            "three fields set one by one → canSubmit: true (deliveries: 4)",
            "cleared in one batch → canSubmit: false (deliveries: 5)",
            "autofilled in one batch → canSubmit: true (deliveries: 6)",
            // The form's graph, drawn by rank.
            "+------+  +--------+  +-------+",
            "| name |  | agreed |  | email |",
            "  email --map--> emailLooksRight",
            "  emailLooksRight --combine--> combine",
            "  combine --mapEach--> valid",
            "| valid |",
        ], in: lines)
        #expect(lines.filter { $0.hasPrefix("  service: start \"r") }.count == 3,
                "typing \"r\", \"ri\", \"riv\" quickly makes one request")
    }
}
