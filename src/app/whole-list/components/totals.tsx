import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { StartJob } from '../../jobs/use-start-job.ts';
import { failureSentence } from '../../lib/problem-text.ts';
import { summaryOptions, walkCostOptions } from '../api/whole-list-queries.ts';
import type { JobOffer } from '../hooks/use-job-offer.ts';
import { usePanelAddress } from '../hooks/use-panel-address.ts';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, NOTE, QUIET, SUBHEADING } from './panel-styles.ts';
import { RangeForm, type Range } from './range-form.tsx';
import { SummaryView } from './summary-view.tsx';

// The list's exact total, from the server's summary: a duration with the time it takes at
// faster speeds, or a channel's videos across its playlists; over a range of items (from A to
// B) when one is chosen, kept in the address as ?from=&to= so that it can be shared. A list
// that states no length or costs more than can be paid now is offered as a summary job too
// (docs/jobs.md); beyond what can be paid now, only as a job.

export function Totals({
  offer,
  jobs,
  ...props
}: WholeListProps & { offer: JobOffer | null; jobs: StartJob }) {
  const translation = useTranslation();
  const { t } = translation;
  const address = usePanelAddress();
  const [range, setRange] = useState<Range>(() => {
    const { from, to } = address.params;
    return { from, to };
  });
  // The server adds up by reading every page: asked for at once when that is free (the pages
  // are cached, or the whole list is already here) or when a link names a range; otherwise
  // what it would cost is said first, as for Load all.
  const [asked, setAsked] = useState(() => range.from !== undefined || range.to !== undefined);
  const cost = useQuery({
    ...walkCostOptions(props.list, props.id),
    enabled: !props.complete && !asked,
  });
  const free = props.complete || cost.data?.lookups === 0;
  const summary = useQuery({
    ...summaryOptions(props.list, props.id, range.from, range.to),
    enabled: asked || free,
  });
  const apply = (next: Range) => {
    setAsked(true);
    setRange(next);
    address.write(next);
  };
  const heading =
    props.list === 'channel-playlists'
      ? t('wholeList.totals.heading.videos')
      : t('wholeList.totals.heading.time');
  return (
    <div className={CARD}>
      <h3 className={SUBHEADING}>{heading}</h3>
      {!asked && !free ? (
        <div className="mt-2 space-y-2">
          <p className={NOTE}>
            {cost.data?.lookups
              ? t('wholeList.totals.cost', { lookups: cost.data.lookups })
              : t('wholeList.totals.costUnknown')}
          </p>
          {/* Not while the cost is on its way: if it turns out free, the list is added up at
              once, and a button offered meanwhile would vanish under the reader's finger. */}
          <div className="flex flex-wrap gap-2" hidden={cost.isPending}>
            {offer !== 'too-long' && (
              <Button size="sm" onClick={() => setAsked(true)}>
                {t('wholeList.totals.start')}
              </Button>
            )}
            {offer !== null && (
              <Button
                size="sm"
                variant={offer === 'too-long' ? 'primary' : 'secondary'}
                disabled={jobs.starting}
                onClick={() => jobs.start('summary')}
              >
                {t('jobs.offer.summary')}
              </Button>
            )}
          </div>
        </div>
      ) : summary.isPending ? (
        <p role="status" className={`${QUIET} mt-2`}>
          {t('wholeList.totals.pending')}
        </p>
      ) : summary.isError ? (
        <p role="alert" className={`${NOTE} mt-2`}>
          {t('wholeList.totals.failed', { reason: failureSentence(summary.error, translation) })}
        </p>
      ) : (
        <SummaryView summary={summary.data} props={props} />
      )}
      <RangeForm range={range} max={props.totalItems} onApply={apply} />
    </div>
  );
}
