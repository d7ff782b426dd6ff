import type { Operator } from './session';

/** What the console's router hands every screen: its address's parameters and who is signed in. */
export interface ScreenProps {
  params: Record<string, string | undefined>;
  operator: Operator;
}
