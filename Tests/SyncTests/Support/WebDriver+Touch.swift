import Foundation

/// A finger on the phone's screen: touches dispatched through Chrome DevTools
/// (`Input.dispatchTouchEvent`), which Chromium turns into pointer events and, for a tap, the
/// click that follows it, as on a phone. Coordinates are CSS pixels of the 390×844 viewport.
extension WebDriver {
    struct Point: Sendable {
        let x: Double
        let y: Double
    }

    /// Makes the page a touch screen (`maxTouchPoints`, touch events): done once per session.
    func enableTouch() async throws {
        try await cdp("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5])
    }

    /// A tap: finger down and up at one point.
    func tap(_ point: Point) async throws {
        try await touch("touchStart", at: point)
        try await Task.sleep(for: .milliseconds(50))
        try await cdp("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": [] as [Any]])
    }

    /// A tap at the centre of the element with this `data-testid`.
    func tap(_ testID: String) async throws {
        try await tap(try await centre(of: testID))
    }

    /// A one-finger drag from `start` to `end` in `steps` moves, as a person places the map: the
    /// finger rests at `end` before it lifts, so the drag ends with no speed (a finger lifted
    /// while moving is a fling, and the next touch only stops it).
    func drag(from start: Point, to end: Point, steps: Int = 12) async throws {
        try await touch("touchStart", at: start)
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            try await touch("touchMove", at: Point(x: start.x + (end.x - start.x) * f, y: start.y + (end.y - start.y) * f))
            try await Task.sleep(for: .milliseconds(16))
        }
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(50))
            try await touch("touchMove", at: end)
        }
        try await cdp("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": [] as [Any]])
    }

    /// The centre of an element's box in the viewport (it must be shown).
    func centre(of testID: String) async throws -> Point {
        let box = try await execute("""
            const e = document.querySelector(arguments[0]);
            if (!e) return null;
            const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height];
            """, ["[data-testid=\"\(testID)\"]"]) as? [Double]
        guard let box, box.count == 4, box[2] > 0, box[3] > 0 else {
            throw Failure(description: "\(testID) is not shown on the screen")
        }
        return Point(x: box[0], y: box[1])
    }

    private func touch(_ type: String, at point: Point) async throws {
        try await cdp("Input.dispatchTouchEvent", ["type": type, "touchPoints": [["x": point.x, "y": point.y, "radiusX": 5, "radiusY": 5, "force": 1] as [String: Any]]])
    }
}
