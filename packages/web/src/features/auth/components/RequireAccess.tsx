import { pagePath } from '@subshare/core/pages';
import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectIsStaff, selectUser } from '../selectors';
import { returnUrlSet } from '../slice';

type Requirement = 'login' | 'verifiedEmail' | 'staff';

interface RequireAccessProps {
  requirement: Requirement;
  children: ReactNode;
}

/**
 * Client-side route guard (spec section 2): a visitor without access is sent away and the
 * requested URL is stored as the return URL. Only a convenience: the server checks every call.
 */
export function RequireAccess({ requirement, children }: RequireAccessProps) {
  const user = useAppSelector(selectUser);
  const isStaff = useAppSelector(selectIsStaff);
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();

  const allowed = requirement === 'staff' ? isStaff : requirement === 'verifiedEmail' ? Boolean(user?.isEmailVerified) : user !== null;
  // The admin area sends others home; buyer pages send them to log in (and verify their e-mail).
  const redirectTo = requirement === 'staff' ? '/' : pagePath.login();

  useEffect(() => {
    if (allowed) return;
    // A navigation already under way wins: the router renders a new address in a transition,
    // after the store's change, so log-out (which sends the tab home first) would otherwise be
    // seen here on the old page, which would store itself as the return URL and go to /login.
    if (window.location.pathname + window.location.search !== location.pathname + location.search) return;
    dispatch(returnUrlSet(location.pathname + location.search));
    navigate(redirectTo, { replace: true });
  }, [allowed, dispatch, location.pathname, location.search, navigate, redirectTo]);

  return allowed ? children : null;
}
