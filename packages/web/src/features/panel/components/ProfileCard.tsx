import { useState } from 'react';
import { Box, Flex, Heading, Image, Stack, Text } from '@chakra-ui/react';
import { DefaultAvatar } from '../../../components/ui/DefaultAvatar';
import type { PanelUser } from '../../../services/api/panel';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { Field } from './ItemFrame';

const PHOTO_SIZE = 72;

/** The name to greet with: the nickname, else the e-mail's local part. */
export function displayName(user: PanelUser): string {
  return user.name?.trim() || user.email.split('@')[0] || user.email;
}

/** The profile (spec section 2): photo (the default picture when there is none), nickname, name and e-mail. */
export function ProfileCard({ user }: { user: PanelUser }) {
  const t = useT(PANEL_TEXTS);
  const [failed, setFailed] = useState(false);
  const name = displayName(user);
  const alt = t('panel.photoAlt', { name });

  return (
    <Box as="section" aria-labelledby="panel-profile-heading" data-testid="panel-profile" borderWidth="1px" borderRadius="2xl" p={{ base: '5', md: '6' }}>
      <Heading as="h2" id="panel-profile-heading" size="md" color="fg.muted" mb="4">
        {t('panel.profile')}
      </Heading>
      <Flex gap={{ base: '4', md: '6' }} align={{ base: 'flex-start', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
        <Box data-testid="panel-photo" data-default={!user.photoUrl || failed} boxSize={`${PHOTO_SIZE}px`} borderRadius="full" overflow="hidden" flexShrink={0}>
          {user.photoUrl && !failed ? (
            <Image
              src={user.photoUrl}
              alt={alt}
              htmlWidth={PHOTO_SIZE}
              htmlHeight={PHOTO_SIZE}
              boxSize="full"
              objectFit="cover"
              referrerPolicy="no-referrer"
              onError={() => setFailed(true)}
            />
          ) : (
            <DefaultAvatar size={PHOTO_SIZE} title={alt} />
          )}
        </Box>
        <Stack gap="3" minW="0" flex="1">
          <Text data-testid="panel-name" fontSize={{ base: 'xl', md: '2xl' }} fontWeight="bold" overflowWrap="anywhere">
            {name}
          </Text>
          <Box as="dl" display="grid" gridTemplateColumns={{ base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }} gap="3" m="0">
            <Field label={t('panel.nickname')} testId="panel-nickname">
              {user.name?.trim() || t('panel.notSet')}
            </Field>
            <Field label={t('panel.email')} testId="panel-email">
              {user.email}
            </Field>
          </Box>
        </Stack>
      </Flex>
    </Box>
  );
}
