import { Navigate, useLocation } from 'react-router';
import { pathFor, readPath } from '../lib/view-target.ts';
import { NotFoundView } from './not-found-route.tsx';

// The platform's own URLs with our host: `/playlist?list=ID` and
// `/watch?v=VIDEO&list=ID[&index=N]` open the playlist view, at that video or position.

export function PlatformLinkRoute() {
  const location = useLocation();
  const read = readPath(location.pathname, location.search);
  if (read?.ok) return <Navigate replace to={pathFor(read.target)} />;
  return (
    <NotFoundView heading="Nothing to open here">
      <p>{read?.message ?? 'This address does not name a playlist.'}</p>
    </NotFoundView>
  );
}
