import { exportPath, type ExportFormat } from '../../../shared/whole-list.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, QUIET, SUBHEADING } from './panel-styles.ts';

// Downloads of the whole list: plain links to the server's exports, which read every page
// themselves, so a file never waits for Load all. The CSV is meant for a spreadsheet, so it
// comes with the byte order mark Excel needs to read it as UTF-8.

const EXPORTS: ReadonlyArray<{ format: ExportFormat; label: string; note: string }> = [
  { format: 'csv', label: 'CSV', note: 'every field, for a spreadsheet' },
  { format: 'json', label: 'JSON', note: 'the items as the lookups give them' },
  { format: 'txt', label: 'Text', note: 'one link a line' },
];

export function ExportLinks({ list, id }: Pick<WholeListProps, 'list' | 'id'>) {
  return (
    <div className={CARD}>
      <h3 className={SUBHEADING}>Export</h3>
      <ul className="mt-2 flex flex-wrap gap-2">
        {EXPORTS.map(({ format, label, note }) => (
          <li key={format}>
            <a
              href={exportPath(list, id, format, { bom: format === 'csv' })}
              download
              className={buttonClass('secondary', 'sm')}
              title={`Download the whole list as ${label}: ${note}`}
            >
              {`Download ${label}`}
            </a>
          </li>
        ))}
      </ul>
      <p className={`${QUIET} mt-2`}>The server reads the whole list for the file.</p>
    </div>
  );
}
