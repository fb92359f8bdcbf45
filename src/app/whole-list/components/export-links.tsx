import type { MessageId } from '../../../shared/i18n/message-id.ts';
import { exportPath, type ExportFormat } from '../../../shared/whole-list.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, QUIET, SUBHEADING } from './panel-styles.ts';

// Downloads of the whole list: plain links to the server's exports, which read every page
// themselves, so a file never waits for Load all. The CSV is meant for a spreadsheet, so it
// comes with the byte order mark Excel needs to read it as UTF-8.

const EXPORTS: ReadonlyArray<{ format: ExportFormat; label: MessageId; title: MessageId }> = [
  { format: 'csv', label: 'wholeList.export.csv', title: 'wholeList.export.csv.title' },
  { format: 'json', label: 'wholeList.export.json', title: 'wholeList.export.json.title' },
  { format: 'txt', label: 'wholeList.export.txt', title: 'wholeList.export.txt.title' },
];

export function ExportLinks({ list, id }: Pick<WholeListProps, 'list' | 'id'>) {
  const { t } = useTranslation();
  return (
    <div className={CARD}>
      <h3 className={SUBHEADING}>{t('wholeList.export.heading')}</h3>
      <ul className="mt-2 flex flex-wrap gap-2">
        {EXPORTS.map(({ format, label, title }) => (
          <li key={format}>
            <a
              href={exportPath(list, id, format, { bom: format === 'csv' })}
              download
              className={buttonClass('secondary', 'sm')}
              title={t(title)}
            >
              {t(label)}
            </a>
          </li>
        ))}
      </ul>
      <p className={`${QUIET} mt-2`}>{t('wholeList.export.note')}</p>
    </div>
  );
}
