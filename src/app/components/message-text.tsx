import { Trans } from '@lingui/react';
import type { MessageId } from '../../shared/i18n/message-id.ts';

/**
 * A catalog message whose values are what the reader or the data wrote (an ID, a link, a host):
 * each value is isolated in a `<bdi>`, so that its own direction does not reorder the sentence
 * around it (a Latin ID inside an Arabic sentence), and is never read as the message's markup.
 */
export function MessageText({ id, values }: { id: MessageId; values?: Record<string, string> }) {
  const isolated =
    values &&
    Object.fromEntries(Object.entries(values).map(([name, value]) => [name, <bdi>{value}</bdi>]));
  return <Trans id={id} values={isolated} />;
}
