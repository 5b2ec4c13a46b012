import Foundation
import LedgerCore
import LedgerSync
import Testing

/// Conformance/admission.jsonl, written by hand from `MergeAdmission` (Schemas/merge.md §2.1,
/// Schemas/conformance.md): each case's records decoded (`WireRecord.record()`), then admitted
/// as a store admits a push, its held records standing for the store's rows (compared by id with
/// `checkStored`). A refusal is matched by its `LedgerError.Cause`, never by its words; the app
/// is held to the same file (Tests/WebApp/admissionConformance.test.mjs).
@Suite("Conformance corpus: the admission of received records, both sides")
struct AdmissionConformanceTests {
    struct Case: Decodable {
        var name: String
        var rules: String
        var catalog: [UInt32]?
        var now: Int64
        var held: [WireRecord]
        var incoming: [WireRecord]
        var accepted: Accepted?
        var refused: Refusal?

        enum CodingKeys: String, CodingKey {
            case name = "case", rules, catalog, now, held, incoming, accepted, refused
        }
    }

    struct Accepted: Decodable, Equatable {
        var events: [Event]
        var names: [Name]
        var duplicates: Int
    }

    struct Event: Decodable, Equatable {
        var device: String
        var seq: UInt64
    }

    struct Name: Decodable, Equatable {
        var device: String
        var hlc: String
        var name: String
    }

    /// A refusal: its reason code, and the record's device and seq where the check names them.
    struct Refusal: Decodable, Equatable {
        var reason: String
        var device: String?
        var seq: UInt64?
    }

    enum Outcome: Equatable {
        case accepted(Accepted)
        case refused(Refusal)
    }

    static let cases: [Case] = {
        let url = ConformanceCorpusTests.directory.appendingPathComponent("admission.jsonl")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { try! JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
    }()

    @Test("the corpus has a case for every check") func corpusIsThere() {
        let reasons = Set(Self.cases.compactMap(\.refused?.reason))
        #expect(Self.cases.count >= 20, "Conformance/admission.jsonl: \(Self.cases.count) cases")
        #expect(reasons.isSuperset(of: ["malformed-record", "differing-copy", "differing-duplicate", "seq-gap", "before-2000",
                                        "clock-ahead", "future-date", "unknown-station"]))
    }

    @Test("each case is accepted or refused as the corpus says", arguments: cases.map(\.name))
    func admitsAsTheCorpusSays(name: String) throws {
        let c = try #require(Self.cases.first { $0.name == name })
        let outcome = try Self.outcome(of: c)
        switch (outcome, c.accepted, c.refused) {
        case (.accepted(let accepted), let expected?, nil):
            #expect(accepted == expected, "\(name)")
        case (.refused(let refusal), nil, let expected?):
            #expect(refusal.reason == expected.reason, "\(name): reason")
            // Where the cause names the record, it is the corpus's.
            if let device = refusal.device { #expect(device == expected.device, "\(name): device") }
            if let seq = refusal.seq { #expect(seq == expected.seq, "\(name): seq") }
        default:
            Issue.record("\(name): \(outcome), expected accepted \(String(describing: c.accepted)) refused \(String(describing: c.refused))")
        }
    }

    /// The admission of the case's incoming records by a receiver holding its held ones.
    static func outcome(of c: Case) throws -> Outcome {
        let incoming: [LedgerRecord]
        do {
            incoming = try c.incoming.map { try $0.record() }
        } catch let error as LedgerError where error.cause == .malformedRecord {
            return .refused(Refusal(reason: "malformed-record"))
        }
        var vector: [DeviceID: UInt64] = [:]
        var names: [DeviceID: DeviceNameRecord] = [:]
        var stored: [EventID: [UInt8]] = [:]
        for record in try c.held.map({ try $0.record() }) {
            if case .deviceName(let name) = record {
                if (names[name.device]?.hlc ?? .zero) < name.hlc { names[name.device] = name }
                continue
            }
            let id = try #require(record.eventID)
            vector[id.device] = max(vector[id.device] ?? 0, id.seq)
            stored[id] = EncodedRecords([record]).bytes
        }
        let options = c.rules == "push"
            ? MergeOptions.acceptingPush(stations: StationSet(Set(c.catalog ?? [])), now: c.now)
            : MergeOptions()
        var admission = MergeAdmission(into: .init(held: vector, deviceNames: names, now: c.now), options: options)
        let admitted: AdmittedBatch
        do {
            try EncodedRecords(incoming).forEach { try admission.receive($0) }
            for id in admission.heldIDs {
                let bytes = try #require(stored[id], "\(c.name): \(id) is received as held but the case does not hold it")
                try bytes.withUnsafeBytes { try admission.checkStored(id, encoded: $0) }
            }
            admitted = try admission.admit()
        } catch let error as LedgerError {
            return .refused(try #require(refusal(error), "\(c.name): a refusal without an admission cause: \(error)"))
        }
        var events: [Event] = []
        admitted.forEachEvent { events.append(Event(device: $0.device.description, seq: $0.seq)) }
        let appendedNames = admitted.names.map { Name(device: $0.device.description, hlc: String($0.hlc.rawValue), name: $0.name) }
        return .accepted(Accepted(events: events, names: appendedNames, duplicates: admitted.duplicates))
    }

    /// The corpus's reason code of an admission's refusal, from its cause (Schemas/merge.md §2.1).
    static func refusal(_ error: LedgerError) -> Refusal? {
        func naming(_ reason: String, _ id: EventID) -> Refusal {
            Refusal(reason: reason, device: id.device.description, seq: id.seq)
        }
        switch error.cause {
        case .malformedRecord?: return Refusal(reason: "malformed-record")
        case .differingEvent(let id)?: return naming("differing-copy", id)
        case .differingWithin(let id)?: return naming("differing-duplicate", id)
        case .seqGap(let gap)?: return Refusal(reason: "seq-gap", device: gap.device.description, seq: gap.found)
        case .beforeEarliest?: return Refusal(reason: "before-2000")
        case .clockAhead?: return Refusal(reason: "clock-ahead")
        case .invalidEdit(let id)?: return naming("invalid-edit", id)
        case .futureDate(let id)?: return naming("future-date", id)
        case .unknownStation(let id)?: return naming("unknown-station", id)
        default: return nil
        }
    }
}
