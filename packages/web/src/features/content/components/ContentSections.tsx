import { Box, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import type { ContentSection } from '../texts';

interface ContentSectionsProps {
  sections: readonly ContentSection[];
  fill: (text: string) => string | null;
}

const present = (texts: Array<string | null>): string[] => texts.filter((text): text is string => text !== null);

/** The h2 sections of a static page: paragraphs, then a bulleted list. */
export function ContentSections({ sections, fill }: ContentSectionsProps) {
  return (
    <Stack gap="8">
      {sections.map((section) => {
        const paragraphs = present((section.paragraphs ?? []).map(fill));
        const list = present((section.list ?? []).map(fill));
        if (paragraphs.length === 0 && list.length === 0) return null;
        return (
          <Box as="section" key={section.heading} data-testid="content-section">
            <Heading as="h2" size="xl" mb="3">
              {section.heading}
            </Heading>
            <Stack gap="3" lineHeight="tall">
              {paragraphs.map((paragraph) => (
                <Text key={paragraph}>{paragraph}</Text>
              ))}
              {list.length > 0 && (
                <chakra.ul listStyleType="disc" ps="6" m="0" display="flex" flexDirection="column" gap="2">
                  {list.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </chakra.ul>
              )}
            </Stack>
          </Box>
        );
      })}
    </Stack>
  );
}
