// The pseudo-locale's letters: each ASCII letter of the interface's own text becomes an accented
// look-alike, so the text stays readable while any plain ASCII word on a page is known not to
// have come through the catalog.

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = 'ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ';

const SWAP = new Map([...PLAIN].map((letter, i) => [letter, [...ACCENTED][i]!]));

export function pseudoText(text: string): string {
  let out = '';
  for (const char of text) out += SWAP.get(char) ?? char;
  return out;
}
