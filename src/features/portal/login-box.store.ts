import { create } from 'zustand';

export type LoginTab = 'password' | 'sms' | 'register' | 'reset';

type LoginBoxState = {
  open: boolean;
  tab: LoginTab;
  show: (tab?: LoginTab) => void;
  setTab: (tab: LoginTab) => void;
  close: () => void;
};

/** Whether the login box is open and on which form: small UI state shared by the top bar and pages. */
export const useLoginBox = create<LoginBoxState>((set) => ({
  open: false,
  tab: 'password',
  show: (tab = 'password') => set({ open: true, tab }),
  setTab: (tab) => set({ tab }),
  close: () => set({ open: false }),
}));
