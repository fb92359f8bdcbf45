import { describe, expect, it } from 'vitest';
import { pathParameters, routerPath } from './operation.ts';

describe('an operation path template', () => {
  it('becomes the router’s path: one parameter a segment, a shared segment matched whole', () => {
    expect(routerPath('/api/v1/playlist')).toBe('/api/v1/playlist');
    expect(routerPath('/api/summary/{list}/{id}')).toBe('/api/summary/:list/:id');
    expect(routerPath('/api/export/{list}/{id}.{format}')).toBe('/api/export/:list/:segment4');
  });

  it('gives the parameters by their names, a shared segment split at its last dot', () => {
    const exportParams = pathParameters('/api/export/{list}/{id}.{format}');
    expect(exportParams({ list: 'playlist', segment4: 'PL.a.csv' })).toEqual({
      list: 'playlist',
      id: 'PL.a',
      format: 'csv',
    });
    // Without the shape the template gives the segment: no parameters at all.
    expect(exportParams({ list: 'playlist', segment4: 'PLabc' })).toBeNull();
    expect(exportParams({ list: 'playlist', segment4: '.csv' })).toBeNull();
    expect(exportParams({ list: 'playlist', segment4: 'PLabc.' })).toBeNull();
    expect(pathParameters('/api/walk/{list}/{id}')({ list: 'x', id: 'y' })).toEqual({
      list: 'x',
      id: 'y',
    });
  });
});
