import { injectedAdminSlice } from './slice';

// Read through the injected slice: before the slice's first action they answer its initial state.
export const { selectDashboard, selectOrders, selectUsers, selectCreate, selectAdminUser, selectRefund } = injectedAdminSlice.selectors;
