import { useState } from 'react';
import { Box, Image, type BoxProps } from '@chakra-ui/react';

/** The shop's dark neutral, for an older answer without a brand colour. */
const NEUTRAL = '#1a1a2e';

interface PlatformLogoProps extends Omit<BoxProps, 'children'> {
  /** The platform's name: its initial stands in when there is no logo (or it fails to load). */
  name: string;
  src?: string | null;
  /** The platform's brand colour (the catalog's logos are white marks drawn for it). */
  colour?: string | null;
  alt: string;
  testId: string;
  /** The image's width and height attributes: they reserve the space before the image arrives. */
  htmlWidth: number;
  htmlHeight: number;
}

/** The platform's logo on its brand colour; its initial when there is no logo or it does not load. */
export function PlatformLogo({ name, src, colour, alt, testId, htmlWidth, htmlHeight, ...box }: PlatformLogoProps) {
  const [failed, setFailed] = useState(false);
  return (
    <Box flexShrink={0} borderRadius="md" overflow="hidden" bg={colour || NEUTRAL} color="white" display="grid" placeItems="center" fontWeight="bold" {...box}>
      {failed || !src ? (
        // No logo to show: the platform's initial (its name is the heading next to it).
        <span aria-hidden="true">{name.trim().charAt(0).toUpperCase()}</span>
      ) : (
        <Image
          data-testid={testId}
          src={src}
          alt={alt}
          htmlWidth={htmlWidth}
          htmlHeight={htmlHeight}
          w="full"
          h="full"
          objectFit="contain"
          onError={() => setFailed(true)}
        />
      )}
    </Box>
  );
}
