package io.weir.internal.config;

import java.util.regex.Pattern;

/**
 * What a bearer token may look like: RFC 6750's {@code b64token} (letters, digits and
 * {@code -._~+/}, then any {@code =}). Checked where tokens are read (the setting and the token
 * file), so a token with a stray space or newline fails at start-up instead of never matching.
 */
public final class BearerTokenSyntax {

    private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

    private BearerTokenSyntax() {}

    /** True if {@code token} can be sent as {@code Authorization: Bearer <token>}. */
    public static boolean valid(String token) {
        return B64TOKEN.matcher(token).matches();
    }
}
