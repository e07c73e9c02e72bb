import type { RootState } from '../../app/store';

export const selectIsLoading = (state: RootState) => state.shell.pendingRequests > 0;
export const selectSnackbar = (state: RootState) => state.shell.snackbar;
