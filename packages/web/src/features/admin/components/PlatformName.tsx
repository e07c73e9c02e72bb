import { Flex, chakra } from '@chakra-ui/react';

/** A platform's name with a dot of its brand colour. */
export function PlatformName({ name, color }: { name: string; color: string | null | undefined }) {
  return (
    <Flex as="span" align="center" gap="2" minW="28">
      <chakra.span aria-hidden="true" w="3" h="3" borderRadius="full" flexShrink={0} bg={color || 'gray.500'} borderWidth="1px" borderColor="blackAlpha.300" />
      {name}
    </Flex>
  );
}
