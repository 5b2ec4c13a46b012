// Writes Tests/WebApp/fixtures/qr/*.txt, the matrices qrCode.test.mjs compares with, after
// zbarimg (apt-get install zbar-tools) decoded each to its exact text; refuses otherwise:
//   node Tests/WebApp/support/record-qr-fixtures.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, repo } from './paths.mjs';
import { hasZbarimg, matrixText, zbarDecode } from './qrImage.mjs';
import { QR_FIXTURES } from './qrFixtures.mjs';

const { encodeText } = await appModule('qrCode.js');
if (!hasZbarimg()) {
  console.error('error: zbarimg is missing; install it with: apt-get install zbar-tools');
  process.exit(69);
}
for (const fixture of QR_FIXTURES) {
  const code = encodeText(fixture.text);
  const read = zbarDecode(code.modules);
  if (read !== fixture.text) {
    console.error(`error: zbarimg read ${JSON.stringify(read)} from the code of ${JSON.stringify(fixture.text)}; nothing written`);
    process.exit(1);
  }
  writeFileSync(path.join(repo, 'Tests/WebApp/fixtures/qr', fixture.file), matrixText(code.modules));
  console.log(`${fixture.file}: version ${code.version}, mask ${code.mask}, decoded by zbarimg`);
}
