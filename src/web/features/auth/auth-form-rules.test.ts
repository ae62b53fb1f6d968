import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import {
  googleErrorMessage,
  isRefusedResetLink,
  signInErrorMessage,
  signUpFailure,
  validateNewPassword,
  validateResetEmail,
  validateSignIn,
  validateSignUp,
} from './auth-form-rules.ts';

describe('validateSignIn', () => {
  it('asks for both fields when either is empty', () => {
    const message = 'Please enter both email and password';
    expect(validateSignIn('', '')).toEqual({ message, field: 'email' });
    expect(validateSignIn('   ', 'secret')).toEqual({ message, field: 'email' });
    expect(validateSignIn('a@b.co', '')).toEqual({ message, field: 'password' });
  });

  it('leaves the password rules to the server (an old short password may still sign in)', () => {
    expect(validateSignIn('a@b.co', 'x')).toBeNull();
  });
});

describe('validateSignUp', () => {
  it('checks presence first, then the password length, as the specification orders them', () => {
    expect(validateSignUp('', 'abc')?.message).toBe('Please enter both email and password');
    expect(validateSignUp('not-an-email', 'abc')?.message).toBe(
      'Password must be at least 6 characters long',
    );
    expect(validateSignUp('a@b.co', '12345')).toEqual({
      message: 'Password must be at least 6 characters long',
      field: 'password',
    });
  });

  it('accepts exactly 6 characters and refuses more than 128', () => {
    expect(validateSignUp('a@b.co', 'abcdef')).toBeNull();
    expect(validateSignUp('a@b.co', 'x'.repeat(129))?.message).toBe(
      'Password must be at most 128 characters long',
    );
  });

  it('catches an obvious email typo before the round trip', () => {
    expect(validateSignUp('name@example', 'long-enough')).toEqual({
      message: 'Please enter a valid email address',
      field: 'email',
    });
    expect(validateSignUp(' name@example.com ', 'long-enough')).toBeNull();
  });
});

describe('validateNewPassword', () => {
  it('needs a long enough password typed the same twice', () => {
    expect(validateNewPassword('', '')?.message).toBe('Please enter a new password');
    expect(validateNewPassword('short', 'short')?.message).toBe(
      'Password must be at least 6 characters long',
    );
    expect(validateNewPassword('long-enough', 'long-enougH')).toEqual({
      message: 'Passwords do not match',
      field: 'confirmation',
    });
    expect(validateNewPassword('long-enough', 'long-enough')).toBeNull();
  });
});

describe('validateResetEmail', () => {
  it('needs an address that looks like one', () => {
    expect(validateResetEmail(' ')).toBe('Please enter your email address');
    expect(validateResetEmail('me@home')).toBe('Please enter a valid email address');
    expect(validateResetEmail('me@home.fi')).toBeNull();
  });
});

describe('isRefusedResetLink', () => {
  it('tells a used-up or expired link from other failures', () => {
    expect(isRefusedResetLink(new ApiError(400, 'BAD_REQUEST', 'expired'))).toBe(true);
    expect(isRefusedResetLink(new ApiError(400, 'INVALID_TOKEN', 'Invalid token'))).toBe(true);
    expect(isRefusedResetLink(new ApiError(400, 'VALIDATION_ERROR', 'too short'))).toBe(false);
    expect(isRefusedResetLink(new ApiError(0, 'NETWORK_ERROR', 'offline'))).toBe(false);
  });
});

describe('signInErrorMessage', () => {
  it("shows the server's message, and the specification's words for anything else", () => {
    expect(signInErrorMessage(new ApiError(401, 'UNAUTHORIZED', 'Invalid email or password'))).toBe(
      'Invalid email or password',
    );
    expect(signInErrorMessage(new ApiError(401, 'UNAUTHORIZED', ''))).toBe('Failed to sign in');
    expect(signInErrorMessage(new TypeError('boom'))).toBe(
      'An unexpected error occurred. Please try again.',
    );
  });

  it('shows a rate-limit refusal as it is', () => {
    const text = 'Too many attempts. Please wait 45 seconds and try again.';
    expect(signInErrorMessage(new ApiError(429, 'RATE_LIMITED', text))).toBe(text);
  });
});

describe('signUpFailure', () => {
  it('recognises an address that is already registered, by code or by wording', () => {
    const expected = { message: 'This email is already registered.', offerSignIn: true };
    expect(signUpFailure(new ApiError(409, 'CONFLICT', 'whatever'))).toEqual(expected);
    expect(signUpFailure(new ApiError(422, 'USER_ALREADY_EXISTS', 'User exists'))).toEqual(
      expected,
    );
    expect(signUpFailure(new ApiError(400, 'BAD_REQUEST', 'Email already in use'))).toEqual(
      expected,
    );
  });

  it('recognises a weak password', () => {
    expect(
      signUpFailure(
        new ApiError(
          400,
          'VALIDATION_ERROR',
          'This password is too weak. Please choose a stronger password.',
        ),
      ),
    ).toEqual({
      message: 'This password is too weak. Please choose a stronger password.',
      offerSignIn: false,
    });
  });

  it("otherwise shows the server's message or 'Failed to create account'", () => {
    expect(signUpFailure(new ApiError(429, 'RATE_LIMITED', 'Slow down.')).message).toBe(
      'Slow down.',
    );
    expect(signUpFailure(new Error('boom'))).toEqual({
      message: 'Failed to create account',
      offerSignIn: false,
    });
  });
});

describe('googleErrorMessage', () => {
  it('tells a refusal from an error on the way, for login and sign-up', () => {
    const refused = new ApiError(404, 'NOT_FOUND', 'Sign-in with Google is not available.');
    const offline = new ApiError(0, 'NETWORK_ERROR', 'offline');
    expect(googleErrorMessage('sign-in', refused)).toBe(
      'Failed to sign in with Google. Please try again.',
    );
    expect(googleErrorMessage('sign-in', offline)).toBe('An error occurred during Google login.');
    expect(googleErrorMessage('sign-up', refused)).toBe(
      'Failed to sign up with Google. Please try again.',
    );
    expect(googleErrorMessage('sign-up', new Error('x'))).toBe(
      'An error occurred during Google signup.',
    );
  });
});
