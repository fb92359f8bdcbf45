import { Navigate, useLocation } from 'react-router';
import { MessageText } from '../components/message-text.tsx';
import { useTranslation } from '../i18n/use-translation.ts';
import { pathFor, readPath, type TargetMessage } from '../../shared/view-target.ts';
import { NotFoundView } from './not-found-route.tsx';

// The platform's own URLs with our host: `/playlist?list=ID` and
// `/watch?v=VIDEO&list=ID[&index=N]` open the playlist view, at that video or position.

export function PlatformLinkRoute() {
  const location = useLocation();
  const { t } = useTranslation();
  const read = readPath(location.pathname, location.search);
  if (read?.ok) return <Navigate replace to={pathFor(read.target)} />;
  const message: TargetMessage = read?.message ?? { id: 'platformLink.noPlaylist' };
  return (
    <NotFoundView heading={t('platformLink.heading')}>
      <p>
        <MessageText id={message.id} values={message.values} />
      </p>
    </NotFoundView>
  );
}
