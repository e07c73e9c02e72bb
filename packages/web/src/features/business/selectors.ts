import type { RootState } from '../../app/store';

export const selectBusiness = (state: RootState) => state.business.info;
