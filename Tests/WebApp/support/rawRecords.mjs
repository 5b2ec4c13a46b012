// A reader of the raw record stream (Schemas/segment-format.md §3), written independently of the
// app's encoder, to check that encoder against the Swift golden fixture.
export function decodeRawStream(buf) {
  const records = [];
  let off = 0;
  while (off < buf.length) {
    const kind = buf[off], flags = buf[off + 1], length = buf.readUInt16LE(off + 2);
    const body = buf.subarray(off + 4, off + 4 + length);
    const device = body.readBigUInt64LE(0).toString(16).padStart(16, '0');
    let e;
    if (kind === 1) {
      e = { kind: 'station_edit', device, seq: body.readBigUInt64LE(8), hlc: body.readBigUInt64LE(16), station: body.readUInt32LE(24),
        compDate: flags & 1 ? body.readUInt32LE(28) : null, memo: flags & 2 ? body.subarray(34).toString('utf8') : null,
        origin: ['user', 'import', 'catalog'][body[32]] };
    } else if (kind === 2) {
      e = { kind: 'catalog_version', device, seq: body.readBigUInt64LE(8), hlc: body.readBigUInt64LE(16), catalogVersion: body.readUInt32LE(24) };
    } else if (kind === 3) {
      e = { kind: 'device_name', device, seq: 0n, hlc: body.readBigUInt64LE(8), name: body.subarray(16).toString('utf8') };
    } else if (kind === 4) {
      const n = body.readUInt32LE(24), knowledge = [];
      for (let i = 0; i < n; i++) {
        knowledge.push([body.readBigUInt64LE(28 + 16 * i).toString(16).padStart(16, '0'), body.readBigUInt64LE(36 + 16 * i)]);
      }
      e = { kind: 'knowledge_mark', device, seq: body.readBigUInt64LE(8), hlc: body.readBigUInt64LE(16), knowledge };
    } else {
      throw new Error(`unknown kind ${kind}`);
    }
    records.push({ event: e, bytes: buf.subarray(off, off + 4 + length) });
    off += 4 + length;
  }
  return records;
}
