// The pages of someone not signed in yet: sign-in (labels `Name`, `Password`, `Code`, DESIGN §18)
// and enrolment through the one-time link (a QR code as inline SVG, the secret as text and as an
// otpauth:// link, a password and a first code).
import { CSRF_FIELD } from '../forms.js';
import { html, raw, type SafeHtml } from '../html.js';
import { MIN_PASSWORD_LENGTH } from '../console-enrolment.js';
import { otpauthUri, qrSvg } from '../totp.js';

const hiddenToken = (formToken: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${formToken}" />`;

function codeField(): SafeHtml {
  return html`<label for="code">Code</label>
    <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required />`;
}

export function signInBody(formToken: string, message: { error?: string; notice?: string } = {}): SafeHtml {
  return html`${message.notice ? html`<p class="notice" role="status">${message.notice}</p>` : ''}
    ${message.error ? html`<p class="error" role="alert">${message.error}</p>` : ''}
    <form method="post" action="/console/sign-in" class="stack">
      ${hiddenToken(formToken)}
      <label for="name">Name</label>
      <input id="name" name="name" type="text" autocomplete="username" maxlength="64" required />
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required />
      ${codeField()}
      <button type="submit">Sign in</button>
    </form>
    <p class="muted">New operator? Open the enrolment link you were given. Operator API tokens (po_…) do not open the console.</p>`;
}

export function enrolBody(input: { token: string; formToken: string; operatorName: string; secret: string; error?: string }): SafeHtml {
  const uri = otpauthUri(input.secret, input.operatorName);
  return html`<p>
      Welcome, <strong>${input.operatorName}</strong>. Set your console password and add peerpay to your authenticator app, then confirm
      with the code it shows.
    </p>
    ${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
    <h2>1. Scan this code with your authenticator app</h2>
    ${raw(qrSvg(uri, `QR image to scan with the authenticator app: peerpay, ${input.operatorName}`))}
    <p>Cannot scan it? Enter this secret by hand (time-based, SHA-1, 6 digits, 30 seconds):</p>
    <p><code class="secret" id="totp-secret">${input.secret}</code></p>
    <p>Or open <a href="${uri}">this otpauth:// link</a> on the device with the app.</p>
    <h2>2. Set a password and confirm</h2>
    <form method="post" action="/console/enrol/${input.token}" class="stack">
      ${hiddenToken(input.formToken)}
      <label for="password">Password</label>
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="new-password"
        minlength="${MIN_PASSWORD_LENGTH}"
        maxlength="1024"
        required
        aria-describedby="password-hint"
      />
      <span id="password-hint" class="muted">At least ${MIN_PASSWORD_LENGTH} characters.</span>
      ${codeField()}
      <button type="submit">Finish enrolment</button>
    </form>`;
}

export function enrolmentGoneBody(state: 'unknown' | 'expired'): SafeHtml {
  return state === 'expired'
    ? html`<p class="error" role="alert">
        This enrolment link has expired (links work for 24 hours). Ask an admin for a new one: Operators, Reset TOTP.
      </p>`
    : html`<p class="error" role="alert">This enrolment link is not valid: it was used already, replaced by a newer one, or mistyped.</p>
        <p><a href="/console/sign-in">Sign in</a></p>`;
}
