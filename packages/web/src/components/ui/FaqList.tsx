import { useId, useState } from 'react';
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

function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20px"
      height="20px"
      className={open ? `${styles.chevron} ${styles.open}` : styles.chevron}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6 9l6 6 6-6" />
    </svg>
  );
}

/**
 * Questions that open and close one by one (spec: each toggles independently, all start
 * closed): disclosure buttons with aria-expanded, each controlling its answer. The open flags
 * are the client-only `open` of spec section 3; a new list (another platform) starts closed
 * again when the parent keys this component by it. Plain CSS (no Chakra): the platform page
 * shows it on the first screen; the FAQ page uses it too.
 */
export function FaqList({ items, headingLevel = 3 }: FaqListProps) {
  const baseId = useId();
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });

  return (
    <ul className={styles.list}>
      {items.map((item, index) => {
        const isOpen = open.has(index);
        const buttonId = `${baseId}-q${index}`;
        const panelId = `${baseId}-a${index}`;
        return (
          <li key={index} data-testid="faq-item" data-open={isOpen} className={styles.item}>
            <Heading className={styles.heading}>
              <button
                type="button"
                id={buttonId}
                data-testid="faq-question"
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => toggle(index)}
                className={styles.question}
              >
                <span>{item.question}</span>
                <Chevron open={isOpen} />
              </button>
            </Heading>
            <div id={panelId} data-testid="faq-answer" hidden={!isOpen} className={styles.answer}>
              {item.answer}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
