import { describe, expect, it } from 'vitest';
import {
  hasPanelParams,
  NO_PANEL_PARAMS,
  readPanelParams,
  withPanelParams,
} from './panel-params.ts';

describe('panel parameters in the address', () => {
  it('reads q, sort, from and to, leaving out what it cannot read', () => {
    expect(readPanelParams('?q=jazz&sort=views&from=20&to=60')).toEqual({
      q: 'jazz',
      sort: 'views',
      from: 20,
      to: 60,
    });
    expect(readPanelParams('?sort=sideways&from=0&to=x')).toEqual(NO_PANEL_PARAMS);
    // A range given backwards is read the right way round.
    expect(readPanelParams('?from=60&to=20')).toMatchObject({ from: 20, to: 60 });
  });

  it('opens the panel only when the link names one of its choices', () => {
    expect(hasPanelParams(readPanelParams('?index=40'))).toBe(false);
    expect(hasPanelParams(readPanelParams('?from=2'))).toBe(true);
    expect(hasPanelParams(readPanelParams('?q=a'))).toBe(true);
  });

  it('writes choices, drops defaults and keeps the rest of the address', () => {
    const search = '?index=40&q=old';
    expect(withPanelParams(search, { q: 'new', sort: 'longest' })).toBe(
      '?index=40&q=new&sort=longest',
    );
    expect(withPanelParams(search, NO_PANEL_PARAMS)).toBe('?index=40');
    expect(withPanelParams(search, { from: 3, to: undefined })).toBe('?index=40&q=old&from=3');
    expect(withPanelParams('?q=old', NO_PANEL_PARAMS)).toBe('');
  });
});
