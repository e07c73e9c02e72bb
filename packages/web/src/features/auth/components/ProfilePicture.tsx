import { useState } from 'react';
import { DefaultAvatar } from '../../../components/ui/DefaultAvatar';
import styles from './ProfilePicture.module.css';

interface ProfilePictureProps {
  photoUrl: string | null;
  alt: string;
  size?: number;
}

/** The user's photo, or the default picture when there is none or it fails to load (navigation bar: plain CSS). */
export function ProfilePicture({ photoUrl, alt, size = 36 }: ProfilePictureProps) {
  const [failed, setFailed] = useState(false);
  const showPhoto = Boolean(photoUrl) && !failed;

  return (
    <div data-testid="nav-profile-picture" className={styles.frame} style={{ width: size, height: size }}>
      {showPhoto ? (
        <img
          src={photoUrl ?? undefined}
          alt={alt}
          width={size}
          height={size}
          className={styles.photo}
          referrerPolicy="no-referrer"
          onError={() => setFailed(true)}
        />
      ) : (
        <DefaultAvatar size={size} title={alt} />
      )}
    </div>
  );
}
