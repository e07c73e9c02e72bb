import { useId, useState } from 'react';
import { Box, Heading, chakra } from '@chakra-ui/react';

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
    <chakra.svg
      viewBox="0 0 24 24"
      width="20px"
      height="20px"
      flexShrink={0}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      transform={open ? 'rotate(180deg)' : undefined}
      transition="transform 0.2s"
    >
      <path d="M6 9l6 6 6-6" />
    </chakra.svg>
  );
}

/**
 * Questions that open and close one by one (spec: each toggles independently, all start
 * closed): disclosure buttons with aria-expanded, each controlling its answer. The open flags
 * are the client-only `open` of spec section 3; a new list (another platform) starts closed
 * again when the parent keys this component by it.
 */
export function FaqList({ items, headingLevel = 3 }: FaqListProps) {
  const baseId = useId();
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());

  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });

  return (
    <chakra.ul listStyleType="none" ps="0" m="0" borderTopWidth="1px">
      {items.map((item, index) => {
        const isOpen = open.has(index);
        const buttonId = `${baseId}-q${index}`;
        const panelId = `${baseId}-a${index}`;
        return (
          <chakra.li key={index} data-testid="faq-item" data-open={isOpen} borderBottomWidth="1px">
            <Heading as={`h${headingLevel}`} size="md" m="0">
              <chakra.button
                type="button"
                id={buttonId}
                data-testid="faq-question"
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => toggle(index)}
                display="flex"
                w="full"
                alignItems="center"
                justifyContent="space-between"
                gap="4"
                py="4"
                px="1"
                textAlign="start"
                fontWeight="semibold"
                cursor="pointer"
                borderRadius="sm"
                _hover={{ color: 'purple.700' }}
                focusVisibleRing="inside"
              >
                <span>{item.question}</span>
                <Chevron open={isOpen} />
              </chakra.button>
            </Heading>
            <Box id={panelId} data-testid="faq-answer" hidden={!isOpen} px="1" pb="4" color="fg.muted" whiteSpace="pre-line">
              {item.answer}
            </Box>
          </chakra.li>
        );
      })}
    </chakra.ul>
  );
}
