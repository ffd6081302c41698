import { Link } from 'wouter';
import { PageTitle } from './ui.js';

export default function NotFound() {
  return (
    <>
      <PageTitle title="Page not found" />
      <p>
        There is no dashboard page at this address. <Link href="/">Go to the overview</Link>.
      </p>
    </>
  );
}
