import { useState } from 'react';
import { Box, Image } from '@chakra-ui/react';
import { DefaultAvatar } from '../../../components/ui/DefaultAvatar';

interface ProfilePictureProps {
  photoUrl: string | null;
  alt: string;
  size?: number;
}

/** The user's photo, or the default picture when there is none or it fails to load. */
export function ProfilePicture({ photoUrl, alt, size = 36 }: ProfilePictureProps) {
  const [failed, setFailed] = useState(false);
  const showPhoto = Boolean(photoUrl) && !failed;

  return (
    <Box data-testid="nav-profile-picture" boxSize={`${size}px`} borderRadius="full" overflow="hidden" flexShrink={0}>
      {showPhoto ? (
        <Image
          src={photoUrl ?? undefined}
          alt={alt}
          htmlWidth={size}
          htmlHeight={size}
          boxSize="full"
          objectFit="cover"
          referrerPolicy="no-referrer"
          onError={() => setFailed(true)}
        />
      ) : (
        <DefaultAvatar size={size} title={alt} />
      )}
    </Box>
  );
}
