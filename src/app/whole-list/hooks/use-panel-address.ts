import { useCallback, useMemo } from 'react';
import { useLocation } from 'react-router';
import { useReplaceSearch } from '../../hooks/use-replace-search.ts';
import { readPanelParams, withPanelParams, type PanelParams } from '../lib/panel-params.ts';

/**
 * The panel's choices as the address holds them, and `write`, which puts changed ones there in
 * place (a link then shares them), through the router like every other change to the address.
 */
export function usePanelAddress(): {
  params: PanelParams;
  write: (patch: Partial<PanelParams>) => void;
} {
  const { search } = useLocation();
  const replaceSearch = useReplaceSearch();
  const params = useMemo(() => readPanelParams(search), [search]);
  const write = useCallback(
    (patch: Partial<PanelParams>) => replaceSearch((current) => withPanelParams(current, patch)),
    [replaceSearch],
  );
  return { params, write };
}
