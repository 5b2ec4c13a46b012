import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import LedgerTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A phone-sized headless Chromium driven over the W3C WebDriver protocol by Debian's
/// `chromedriver`, as a person's phone would use the app: a session of its own (profile
/// directory, 390×844), elements found by their `data-testid`, and Chrome DevTools commands
/// (`goog/cdp/execute`) for what a person does to the phone itself: going offline, standing at a
/// station, clearing the site's data. Missing chromium or chromedriver cancels the test, naming
/// the package (a failure under CI=true).
final class WebDriver: @unchecked Sendable {
    private let driver = Process()
    private let base: String
    private let session: String
    let profile: String

    static let driverPath: String? = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let component = TestComponent("chromium and chromedriver",
                                         remedy: "apt-get install chromium chromium-driver; Tools/test installs them as root") {
        driverPath != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    }

    static func require() throws {
        try component.require()
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts chromedriver on a free port and a browser session in Japanese.
    init(language: String = "ja") async throws {
        try Self.require()
        let port = try Self.freePort()
        base = "http://127.0.0.1:\(port)"
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("webdriver-\(UUID().uuidString)").path
        driver.executableURL = URL(fileURLWithPath: Self.driverPath!)
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        var ready = false
        for _ in 0..<100 where !ready {
            // chromedriver's own answer ({"value": {"ready": …}}), not another server's.
            let status = try? await Self.request(.GET, base + "/status", nil)
            ready = (status?["value"] as? [String: Any])?["ready"] != nil
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard ready else { driver.terminate(); throw Failure(description: "chromedriver did not start on port \(port)") }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            // The page's console, for consoleErrors().
            "goog:loggingPrefs": ["browser": "ALL"],
            "goog:chromeOptions": [
                "binary": "/usr/bin/chromium",
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844", "--lang=\(language)",
                         "--user-data-dir=\(profile)", "--no-first-run", "--disable-dev-shm-usage"],
                "prefs": ["intl.accept_languages": language],
            ] as [String: Any],
        ] as [String: Any]]]
        let answer = try await Self.request(.POST, base + "/session", capabilities)
        guard let value = answer["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            driver.terminate()
            throw Failure(description: "no WebDriver session: \(answer)")
        }
        session = id
        // --window-size alone leaves a 500×701 viewport in this Chromium: the phone's size exactly.
        try await cdp("Emulation.setDeviceMetricsOverride", ["width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true])
        // No location until a test stands somewhere (setLocation): headless Chromium allows
        // geolocation by default, and without an override its network location provider, which
        // cannot be reached here, logs an error as soon as the map watches the position.
        try await cdp("Emulation.setGeolocationOverride", [:])
    }

    /// Ends the session (the browser exits) and chromedriver (SIGKILL: it may ignore SIGTERM
    /// while it waits on a browser), waiting without blocking a cooperative thread.
    /// A port no one listens on now: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free port for chromedriver") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func quit() async {
        _ = try? await Self.request(.DELETE, "\(base)/session/\(session)", nil)
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        for _ in 0..<100 where driver.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
        try? FileManager.default.removeItem(atPath: profile)
    }

    // MARK: - Commands

    func open(_ url: String) async throws { _ = try await command(.POST, "url", ["url": url]) }
    func reload() async throws { _ = try await command(.POST, "refresh", [:]) }

    /// Runs `script` in the page (its `arguments` are `args`) and returns its value.
    @discardableResult
    func execute(_ script: String, _ args: [Any] = []) async throws -> Any? {
        try await command(.POST, "execute/sync", ["script": script, "args": args])["value"] ?? nil
    }

    /// A Chrome DevTools Protocol command.
    @discardableResult
    func cdp(_ command: String, _ parameters: [String: Any] = [:]) async throws -> Any? {
        try await self.command(.POST, "goog/cdp/execute", ["cmd": command, "params": parameters])["value"] ?? nil
    }

    /// The network as the phone has it: none, or back.
    func setOffline(_ offline: Bool) async throws {
        try await cdp("Network.enable")
        try await cdp("Network.emulateNetworkConditions", ["offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1])
    }

    /// Standing at (lat, lng), with the site allowed to know it; `accuracy` is the radius in metres
    /// the fix reports (10: a good GPS fix; iOS's approximate location reports 1,000 to 20,000).
    func setLocation(latitude: Double, longitude: Double, origin: String, accuracy: Double = 10) async throws {
        try await cdp("Browser.grantPermissions", ["permissions": ["geolocation"], "origin": origin])
        try await cdp("Emulation.setGeolocationOverride", ["latitude": latitude, "longitude": longitude, "accuracy": accuracy])
    }

    func element(_ testID: String) async throws -> String {
        try await element(css: "[data-testid=\"\(testID)\"]")
    }

    func element(css: String) async throws -> String {
        let answer = try await command(.POST, "element", ["using": "css selector", "value": css])
        guard let value = answer["value"] as? [String: Any], let id = value.values.first as? String else {
            throw Failure(description: "no element \(css): \(answer)")
        }
        return id
    }

    func click(_ testID: String) async throws {
        try await click(css: "[data-testid=\"\(testID)\"]")
    }

    /// Clicks what the selector names now. A list the app re-renders between the lookup and the
    /// click (search results arriving as the user types) leaves a stale element: look it up again,
    /// as a user would tap what is on screen.
    func click(css: String) async throws {
        // A person scrolls what they tap to the middle of the screen: WebDriver's own scrolling
        // stops at the bottom edge, under the app's fixed tab bar.
        _ = try await execute("document.querySelector(arguments[0])?.scrollIntoView({block: 'center'}); return null;", [css])
        do {
            try await onFreshElement(css) { id in _ = try await command(.POST, "element/\(id)/click", [:]) }
        } catch let failure as Failure {
            throw Failure(description: "clicking \(css): \(failure.description)")  // which element, not only its session id
        }
    }

    /// Clicks a button that changes data once it takes taps: such buttons rest (disabled) for a
    /// moment after their screen appears (Schemas/phone-app.md "A tap acts once"), as a person
    /// waits to see what they tap.
    func press(_ testID: String) async throws {
        try await waitEnabled(testID)
        try await click(testID)
    }

    /// Waits until the element is shown and not disabled.
    func waitEnabled(_ testID: String) async throws {
        try await wait("\(testID) to take taps") {
            try await execute("const e = document.querySelector(arguments[0]); return !!e && !e.disabled && !e.hidden",
                              ["[data-testid=\"\(testID)\"]"]) as? Bool == true
        }
    }

    func type(_ testID: String, _ text: String) async throws {
        try await onFreshElement("[data-testid=\"\(testID)\"]") { id in
            _ = try await command(.POST, "element/\(id)/clear", [:])
            _ = try await command(.POST, "element/\(id)/value", ["text": text])
        }
    }

    private func onFreshElement(_ css: String, _ action: (String) async throws -> Void) async throws {
        for attempt in 1... {
            do {
                return try await action(try await element(css: css))
            } catch let failure as Failure where failure.description.contains("stale element reference") && attempt < 5 {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    func text(_ testID: String) async throws -> String {
        try await execute("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
                          ["[data-testid=\"\(testID)\"]"]) as? String ?? ""
    }

    /// Waits (bounded) until `condition` holds, re-evaluated every 100 ms; throws naming `what`.
    func wait(_ what: String, seconds: Double = 20, _ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? await condition()) == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "timed out after \(seconds) s waiting for \(what); page text: \(String((try? await execute("return document.body.innerText") as? String)?.prefix(800) ?? ""))")
    }

    /// The page's console errors and uncaught exceptions since the last call (chromedriver's
    /// browser log: entries at level SEVERE).
    func consoleErrors() async throws -> [String] {
        let answer = try await command(.POST, "se/log", ["type": "browser"])
        let entries = answer["value"] as? [[String: Any]] ?? []
        return entries.filter { ($0["level"] as? String) == "SEVERE" }.map { $0["message"] as? String ?? "\($0)" }
    }

    /// A PNG of the page.
    func screenshot() async throws -> Data {
        let value = try await command(.GET, "screenshot", nil)["value"] as? String ?? ""
        return Data(base64Encoded: value) ?? Data()
    }

    // MARK: - Wire

    private func command(_ method: HTTPMethod, _ path: String, _ body: [String: Any]?) async throws -> [String: Any] {
        let answer = try await Self.request(method, "\(base)/session/\(session)/\(path)", body)
        if let value = answer["value"] as? [String: Any], let error = value["error"] as? String {
            throw Failure(description: "WebDriver \(path): \(error): \(value["message"] ?? "")")
        }
        return answer
    }

    private static func request(_ method: HTTPMethod, _ url: String, _ body: [String: Any]?) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any] ?? [:]
    }
}
