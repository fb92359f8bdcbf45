import type { ScreenClass } from '../../shared/app-render.ts';

// Which screen a page is for, from what every browser sends unasked: Chromium's low-entropy
// client hint `Sec-CH-UA-Mobile` (sent on every request to a secure origin, loopback included),
// else the user agent's "Mobi" (Safari on iPhone, Firefox on Android: the token the browsers
// themselves recommend looking for). Neither is a fact about the screen, only a good guess; a
// wrong one costs a phone more rows than it needs, or a desktop fewer before the app takes
// over, never a broken page (the client renders what the server did).

export interface ScreenClassOf {
  screen: ScreenClass;
  /** The headers the guess read, for the answer's Vary (RFC 9110 §12.5.5). */
  vary: string[];
}

export function screenClassOf(header: (name: string) => string | undefined): ScreenClassOf {
  const hint = header('sec-ch-ua-mobile');
  if (hint !== undefined)
    return { screen: hint.trim() === '?1' ? 'narrow' : 'wide', vary: ['Sec-CH-UA-Mobile'] };
  const agent = header('user-agent') ?? '';
  return {
    screen: /Mobi/.test(agent) ? 'narrow' : 'wide',
    vary: ['Sec-CH-UA-Mobile', 'User-Agent'],
  };
}
