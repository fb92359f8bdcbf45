import type { EndpointName } from '../../shared/endpoints.ts';

/** One page of one list, as the upstream is asked for it (spec §4). */
export interface Lookup {
  endpoint: EndpointName;
  id: string;
  /** Undefined for the first page. */
  continuation: string | undefined;
}
