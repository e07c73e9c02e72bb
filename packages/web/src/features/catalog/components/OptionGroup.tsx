import { Box, Flex, Text, chakra } from '@chakra-ui/react';
import { readableTextColor } from '../../../components/ui/color';

export interface Option {
  id: number;
  name: string;
  /** A second line, e.g. the price per month of a duration. */
  detail?: string;
}

interface OptionGroupProps {
  /** "type" or "duration": names the radios and the test ids (`type-option`, `duration-option`). */
  kind: 'type' | 'duration';
  legend: string;
  options: readonly Option[];
  selectedId: number;
  /** The platform's second colour: border of the chosen option and its tick. */
  accent: string;
  onSelect: (id: number) => void;
}

function Tick({ checked, accent }: { checked: boolean; accent: string }) {
  return (
    <Box
      data-testid={checked ? 'option-tick' : undefined}
      aria-hidden="true"
      flexShrink={0}
      boxSize="6"
      borderRadius="full"
      borderWidth="2px"
      borderColor={checked ? accent : 'gray.500'}
      bg={checked ? accent : 'transparent'}
      color={readableTextColor(accent)}
      display="grid"
      placeItems="center"
    >
      {checked && (
        <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
      )}
    </Box>
  );
}

/**
 * One choice of the platform page (plan type or duration): a real radio group (a fieldset of
 * native radios, so arrows, Tab and screen readers work as everywhere else), drawn as cards;
 * the chosen card is outlined in the platform's colour and ticked.
 */
export function OptionGroup({ kind, legend, options, selectedId, accent, onSelect }: OptionGroupProps) {
  const name = `platform-${kind}`;
  return (
    <chakra.fieldset data-testid={`platform-${kind}-options`} border="0" p="0" m="0" minW="0">
      <chakra.legend fontWeight="semibold" mb="2" p="0">
        {legend}
      </chakra.legend>
      <Box display="grid" gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(9.5rem, 1fr))' }} gap="3">
        {options.map((option) => {
          const checked = option.id === selectedId;
          return (
            <chakra.label
              key={option.id}
              data-testid={`${kind}-option`}
              data-option-id={option.id}
              data-selected={checked}
              position="relative"
              display="flex"
              alignItems="center"
              gap="3"
              p="3"
              minH="14"
              borderWidth="2px"
              borderRadius="lg"
              borderColor={checked ? accent : 'border'}
              bg={checked ? 'bg.subtle' : 'bg'}
              cursor="pointer"
              transition="border-color 0.15s, background 0.15s"
              _hover={{ borderColor: checked ? accent : 'gray.400' }}
              css={{ '&:has(input:focus-visible)': { outline: '3px solid', outlineColor: 'purple.600', outlineOffset: '2px' } }}
            >
              <chakra.input
                type="radio"
                name={name}
                value={option.id}
                checked={checked}
                onChange={() => onSelect(option.id)}
                data-testid={`${kind}-option-input`}
                // Visually hidden, still focusable and announced: the card is its picture.
                position="absolute"
                w="1px"
                h="1px"
                m="-1px"
                p="0"
                overflow="hidden"
                clip="rect(0, 0, 0, 0)"
                whiteSpace="nowrap"
                borderWidth="0"
              />
              <Tick checked={checked} accent={accent} />
              <Flex direction="column" minW="0">
                <Text fontWeight="semibold" lineHeight="short">
                  {option.name}
                </Text>
                {option.detail && (
                  <Text data-testid={`${kind}-option-detail`} fontSize="sm" color="fg.muted" lineHeight="short">
                    {option.detail}
                  </Text>
                )}
              </Flex>
            </chakra.label>
          );
        })}
      </Box>
    </chakra.fieldset>
  );
}
