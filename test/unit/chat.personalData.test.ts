// Personal data masking: which texts count as e-mail addresses and phone numbers, stable placeholders,
// and restoring only what the vault handed out.
import * as assert from 'node:assert/strict';
import { PersonalDataVault } from '../../src/core/chat';

describe('chat: personal data placeholders', () => {
  it('masks e-mail addresses and phone numbers, the same value always with the same placeholder', () => {
    const vault = new PersonalDataVault();
    assert.equal(vault.mask('Mail bob.smith+tag@mail.example.com or BOB@EXAMPLE.COM; again bob.smith+tag@mail.example.com'),
      'Mail [EMAIL_1] or [EMAIL_2]; again [EMAIL_1]');
    assert.equal(vault.mask('Call +1 415-555-0100, (020) 7946 0958 or 415.555.0199.'), 'Call [PHONE_1], [PHONE_2] or [PHONE_3].');
    assert.equal(vault.size, 5);
  });

  it('leaves dates, versions, IP addresses, ids and short numbers alone', () => {
    const vault = new PersonalDataVault();
    const text = 'On 2024-01-15 at 10:30, v1.2.3 on 192.168.10.20 (issue #4155550100, port 8080, +5 points, user@localhost)';
    assert.equal(vault.mask(text), text);
  });

  it('restores the placeholders it gave out, in nested strings and keys, and nothing else', () => {
    const vault = new PersonalDataVault();
    vault.mask('ada@example.org +44 20 7946 0958');
    assert.deepEqual(vault.restore({ to: ['[EMAIL_1]'], '[PHONE_1]': { note: 'call [PHONE_1] not [PHONE_2]' }, n: 3 }),
      { to: ['ada@example.org'], '+44 20 7946 0958': { note: 'call +44 20 7946 0958 not [PHONE_2]' }, n: 3 });
    assert.equal(new PersonalDataVault().restore('[EMAIL_1]'), '[EMAIL_1]');
  });
});
