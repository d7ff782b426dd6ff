/** Signing in to the console and changing one's own password (docs/console.md#sign-in-limits). */
import { Type, type Static } from 'typebox';

/** Who is signed in, and the time zone the API's wall-clock times are in (the console's fields). */
export const Operator = Type.Object({
  name: Type.String(),
  role: Type.Union([Type.Literal('admin'), Type.Literal('editor')]),
  time_zone: Type.String(),
});
export type Operator = Static<typeof Operator>;

const Password = Type.String({ minLength: 1, maxLength: 1024 });

export const SignInBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }), password: Password });
export type SignInBody = Static<typeof SignInBody>;

export const PasswordChangeBody = Type.Object({ current: Password, next: Password }, { additionalProperties: false });
export type PasswordChangeBody = Static<typeof PasswordChangeBody>;
