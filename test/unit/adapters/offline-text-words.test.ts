import { findValue } from '../../../src/adapters/offline/text-search';

describe('searching whole words', () => {
  it('finds a name only as whole words, reporting the words as printed', () => {
    expect(findValue(['NAKAMURA'], 'AKAMURA')?.score).toBe(1);
    const words = findValue(['SURNAME NAKAMURA'], 'AKAMURA', { wholeWords: true });
    expect(words).toMatchObject({ text: 'NAKAMURA', line: 0 });
    expect(words?.score).toBeLessThan(1);
    expect(findValue(['VAN DER BERG'], 'VANDERBERG', { wholeWords: true })?.score).toBe(1);
    expect(findValue(['BRITISH CITIZEN'], 'CITIZEN', { wholeWords: true })).toMatchObject({ text: 'CITIZEN', score: 1 });
    expect(findValue(['CITIZENSHIP'], 'CITIZEN', { wholeWords: true })?.confidence ?? 0).toBeLessThan(0.9);
  });
});
