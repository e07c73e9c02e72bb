import { LineIcon } from '../plain/LineIcon';
import styles from './FaqList.module.css';

export interface FaqEntry {
  question: string;
  answer: string;
}

interface FaqListProps {
  items: readonly FaqEntry[];
  /** The questions' heading level: 3 under a "FAQ" h2, 2 on the FAQ page itself. */
  headingLevel?: 2 | 3;
}

function Chevron() {
  return (
    <LineIcon size="20px" className={styles.chevron}>
      <path d="M6 9l6 6 6-6" />
    </LineIcon>
  );
}

/**
 * Questions that open and close one by one (spec: each toggles independently, all start
 * closed): native <details>/<summary>, so a question opens the moment the page shows, before
 * and without any script. React never sets `open` (not a prop here): hydration and later renders
 * keep what the visitor opened (the spec's client-only `open` flag is the element's own). A new
 * list (another platform) starts closed again when the parent keys this component by it. Plain
 * CSS (no Chakra): the platform page shows it on the first screen; the FAQ page uses it too.
 */
export function FaqList({ items, headingLevel = 3 }: FaqListProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className={styles.list}>
      {items.map((item, index) => (
        <li key={index} data-testid="faq-item" className={styles.item}>
          <details className={styles.details}>
            <summary data-testid="faq-question" className={styles.question}>
              <Heading className={styles.heading}>{item.question}</Heading>
              <Chevron />
            </summary>
            <div data-testid="faq-answer" className={styles.answer}>
              {item.answer}
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
