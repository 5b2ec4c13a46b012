/// How much of a segment was acknowledged as durable: `segments/NNNNNNNN.seg.durable`
/// (Schemas/segment-format.md §5b).
///
/// A torn write can only touch bytes whose append never returned, so a checksum failure below
/// the watermark is bit rot, never a tear: opening refuses to cut it and `verify` names it.
/// The file is 1024 bytes with two slots (at 0 and 512); each append writes the next generation
/// into the other slot in place and syncs it before it is acknowledged, so a write torn by a
/// crash leaves the previous generation readable.
package struct SegmentWatermark: Equatable, Sendable {
    static let magic: [UInt8] = Array("ORTSDURA".utf8)
    static let formatVersion: UInt32 = 1
    package static let fileSize = 1024
    static let slotOffsets = [0, 512]
    /// magic, version, segment number, generation, durable length, local seq; then a CRC-32C.
    static let slotSize = 8 + 4 + 4 + 8 + 8 + 8 + 4

    package var segmentNumber: UInt32
    /// Written in slot `generation % 2`; the larger valid generation is the current one.
    package var generation: UInt64
    /// The segment file's first `durableLength` bytes were durable before any append past them
    /// was acknowledged.
    package var durableLength: Int
    /// The local device's last seq in the ledger at that point (0 if none): repair must never
    /// let the device issue it again.
    package var localSeq: UInt64

    package static func fileName(_ segment: UInt32) -> String { SegmentInfo.fileName(segment) + ".durable" }

    package static func path(of segment: UInt32, segmentsPath: String) -> String { Path.join(segmentsPath, fileName(segment)) }

    package init(segmentNumber: UInt32, generation: UInt64, durableLength: Int, localSeq: UInt64) {
        (self.segmentNumber, self.generation) = (segmentNumber, generation)
        (self.durableLength, self.localSeq) = (durableLength, localSeq)
    }

    var slotOffset: Int { Self.slotOffsets[Int(generation % 2)] }

    func encodedSlot() -> [UInt8] {
        var w = ByteWriter()
        w.append(Self.magic)
        w.put(Self.formatVersion)
        w.put(segmentNumber)
        w.put(generation)
        w.put(UInt64(durableLength))
        w.put(localSeq)
        w.put(CRC32C.checksum(w.bytes))
        return w.bytes
    }

    /// The whole file of a new segment: this watermark in its slot, the other slot zero.
    package func encodedFile() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.fileSize)
        bytes.replaceSubrange(slotOffset..<(slotOffset + Self.slotSize), with: encodedSlot())
        return bytes
    }

    /// Why a watermark file cannot be trusted.
    package struct Damage: Error, Equatable {
        package var reason: String
    }

    /// The watermark of segment `number` in `segmentsPath`, read leniently: `nil` when there is
    /// none, or when the file is shorter than a watermark file (which, in a segment written
    /// before `watermarked_from`, only a creation that never returned left); corruption naming
    /// the file when no slot reads. Opening and scans use `readNewest`, which knows whether the
    /// segment must have one.
    package static func read(of number: UInt32, segmentsPath: String, fileSystem: any FileSystem) -> Result<SegmentWatermark?, LedgerError> {
        let path = path(of: number, segmentsPath: segmentsPath)
        guard fileSystem.fileExists(path) else { return .success(nil) }
        do {
            let bytes = try fileSystem.readFile(path)
            if bytes.count < fileSize { return .success(nil) }
            return decode(bytes, segmentNumber: number).map(Optional.some).mapError {
                .corrupt("the durable length of the newest segment cannot be read (\($0.reason))", file: path, offset: 0)
            }
        } catch let error as LedgerError {
            return .failure(error)
        } catch {
            return .failure(LedgerError(.io, "\(error)", file: path))
        }
    }

    /// Corruption when the segment, `segmentLength` bytes long, lacks bytes this watermark
    /// says were acknowledged.
    func missingBytes(segmentLength: Int, segmentPath: String) -> LedgerError? {
        guard segmentLength < durableLength else { return nil }
        return .corrupt("the segment is \(segmentLength) bytes long, but its first \(durableLength) bytes were acknowledged as durable: acknowledged events are missing",
                        file: segmentPath, offset: segmentLength)
    }

    /// The current watermark of `bytes` (the file), for segment `segmentNumber`. A slot that was
    /// never written is all zero. Leniently (a segment written before `watermarked_from`), a slot
    /// that fails its checks is ignored when the other one is sound (a torn slot write), and
    /// both failing is damage. `strict` (a segment created watermark first, §5b): any slot that
    /// fails, or a nonzero byte outside the slots, is damage: a slot is 44 bytes inside one
    /// 512-byte sector, written in place and synced, so a crash leaves it old or new, never
    /// torn, and falling back to the older generation would let a cut pass for a tear.
    package static func decode(_ bytes: [UInt8], segmentNumber: UInt32, strict: Bool = false) -> Result<SegmentWatermark, Damage> {
        guard bytes.count == fileSize else {
            return .failure(Damage(reason: "it is \(bytes.count) bytes long, not \(fileSize)"))
        }
        if strict, let stray = bytes.indices.first(where: { i in bytes[i] != 0 && !slotOffsets.contains { (0..<slotSize).contains(i - $0) } }) {
            return .failure(Damage(reason: "byte \(stray), outside both slots, is not zero"))
        }
        var best: SegmentWatermark?
        var sound: [SegmentWatermark] = []
        var problems: [String] = []
        for offset in slotOffsets {
            let slot = bytes[offset..<(offset + slotSize)]
            if slot.allSatisfy({ $0 == 0 }) { continue }
            switch decodeSlot(Array(slot), segmentNumber: segmentNumber) {
            case .success(let mark) where mark.slotOffset == offset:
                sound.append(mark)
                if mark.generation > best?.generation ?? 0 { best = mark }
            case .success: problems.append("the slot at \(offset) holds a generation that belongs in the other slot")
            case .failure(let damage): problems.append("the slot at \(offset): \(damage.reason)")
            }
        }
        if strict, problems.isEmpty, let problem = inconsistency(of: sound) { problems.append(problem) }
        if let best, !strict || problems.isEmpty { return .success(best) }
        return .failure(Damage(reason: problems.isEmpty ? "no slot was ever written" : problems.joined(separator: "; ")))
    }

    /// What is wrong with the sound slots of a file written only by appends (strict `decode`):
    /// generation 1 alone, or two consecutive generations that never go back.
    private static func inconsistency(of marks: [SegmentWatermark]) -> String? {
        let sorted = marks.sorted { $0.generation < $1.generation }
        if sorted.count == 1, sorted[0].generation != 1 {
            return "generation \(sorted[0].generation) is alone; the generation before it is missing"
        }
        if sorted.count == 2, sorted[1].generation != sorted[0].generation + 1 || sorted[1].durableLength < sorted[0].durableLength
            || sorted[1].localSeq < sorted[0].localSeq {
            return "its generations \(sorted[0].generation) and \(sorted[1].generation) do not follow one another"
        }
        return nil
    }

    private static func decodeSlot(_ slot: [UInt8], segmentNumber: UInt32) -> Result<SegmentWatermark, Damage> {
        slot.withUnsafeBytes { b in
            guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[0..<(slotSize - 4)])) == b.loadLE(UInt32.self, at: slotSize - 4) else {
                return .failure(Damage(reason: "its checksum does not match"))
            }
            guard Array(b[0..<8]) == magic else { return .failure(Damage(reason: "its magic is wrong")) }
            let version = b.loadLE(UInt32.self, at: 8)
            guard version == formatVersion else { return .failure(Damage(reason: "format version \(version) is not supported")) }
            let number = b.loadLE(UInt32.self, at: 12)
            guard number == segmentNumber else { return .failure(Damage(reason: "it describes segment \(number)")) }
            let generation = b.loadLE(UInt64.self, at: 16), length = b.loadLE(UInt64.self, at: 24)
            guard generation > 0, length <= UInt64(Int.max) else { return .failure(Damage(reason: "its fields are out of range")) }
            return .success(SegmentWatermark(segmentNumber: number, generation: generation, durableLength: Int(length),
                                             localSeq: b.loadLE(UInt64.self, at: 32)))
        }
    }
}
