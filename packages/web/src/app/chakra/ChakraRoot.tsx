/**
 * Chakra's provider with our system, in a chunk of its own: loaded only with the first page or
 * dialog that uses Chakra (through ChakraBoundary), never with the storefront's first screen.
 * The system (tokens, CSS variables, recipes) is built once, when it is first rendered.
 */
import type { ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { createAppSystem, type AppSystem } from '../../components/ui/system';

let system: AppSystem | undefined;

export function ChakraRoot({ children }: { children?: ReactNode }) {
  system ??= createAppSystem();
  return <ChakraProvider value={system}>{children}</ChakraProvider>;
}
