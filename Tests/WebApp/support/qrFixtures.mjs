// The QR codes kept as fixtures (Tests/WebApp/fixtures/qr/), each decoded by zbarimg when recorded
// (support/record-qr-fixtures.mjs).
export const QR_FIXTURES = [
  { file: 'v1-oritsubushi.txt', text: 'oritsubushi', version: 1 },
  { file: 'v4-pairing-link.txt', text: 'https://sync.example.org/app/#pair=K3QZ8M2T', version: 4 },
  { file: 'v7-long-link.txt', text: 'https://oritsubushi-sync.example.org/app/#pair=K3QZ8M2T&from=' + 'a'.repeat(60), version: 7 },
];
