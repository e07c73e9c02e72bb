/**
 * Chakra links and buttons that navigate with the router (no full page load) while keeping
 * real <a href> elements: middle-click, "open in new tab" and crawlers keep working.
 * For pages inside a ChakraBoundary only; the first screen uses components/plain/controls.tsx.
 */
import { Button, Link, type ButtonProps, type LinkProps } from '@chakra-ui/react';
import { Link as RouterLinkBase } from 'react-router-dom';

type RouterLinkProps = Omit<LinkProps, 'href' | 'asChild'> & { to: string };

export function RouterLink({ to, children, ...props }: RouterLinkProps) {
  return (
    <Link asChild {...props}>
      <RouterLinkBase to={to}>{children}</RouterLinkBase>
    </Link>
  );
}

type ButtonLinkProps = Omit<ButtonProps, 'asChild'> & { to: string };

/** A link that looks like a button ("purchase now", "HOME"…). */
export function ButtonLink({ to, children, ...props }: ButtonLinkProps) {
  return (
    <Button asChild {...props}>
      <RouterLinkBase to={to}>{children}</RouterLinkBase>
    </Button>
  );
}
