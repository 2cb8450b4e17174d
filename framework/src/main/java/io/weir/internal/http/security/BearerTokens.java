package io.weir.internal.http.security;

import io.weir.internal.config.BearerTokenSyntax;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The bearer tokens that authenticate a request: those of {@code http.auth.token}, and those of
 * {@code http.auth.token.file} as the file reads now (several at once let a rotation accept the
 * old and the new token while clients move). Thread-safe.
 */
final class BearerTokens {

    private final List<String> inline;
    private final Optional<WatchedFile<List<String>>> file;

    BearerTokens(List<String> inline, Optional<WatchedFile<List<String>>> file) {
        this.inline = List.copyOf(inline);
        this.file = file;
    }

    boolean configured() {
        return !inline.isEmpty() || file.isPresent();
    }

    /**
     * True if {@code presented} is one of the tokens. Compares digests with
     * {@link MessageDigest#isEqual} against every token, so the time taken tells neither how much
     * of a token matched nor which one did, nor its length.
     */
    boolean accepts(String presented) {
        byte[] candidate = WatchedFile.sha256(presented.getBytes(StandardCharsets.UTF_8));
        boolean match = false;
        for (String token : all()) {
            match |= MessageDigest.isEqual(candidate, WatchedFile.sha256(token.getBytes(StandardCharsets.UTF_8)));
        }
        return match;
    }

    /** The token an instance sends to its peers: the file's first, else the setting's first. */
    Optional<String> forPeers() {
        List<String> fromFile = file.map(WatchedFile::current).orElse(List.of());
        return !fromFile.isEmpty()
                ? Optional.of(fromFile.get(0))
                : inline.stream().findFirst();
    }

    private List<String> all() {
        List<String> all = new ArrayList<>(inline);
        file.ifPresent(f -> all.addAll(f.current()));
        return all;
    }

    /**
     * The tokens of a token file: one a line, blank lines skipped.
     *
     * @throws IllegalArgumentException if it holds none, or a line is not a token (without quoting it)
     */
    static List<String> parseFile(byte[] content) {
        List<String> tokens = new ArrayList<>();
        String[] lines = new String(content, StandardCharsets.UTF_8).split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.isEmpty()) {
                continue;
            }
            if (!BearerTokenSyntax.valid(line)) {
                throw new IllegalArgumentException("line " + (i + 1) + " is not a bearer token (not shown: it is a"
                        + " secret); allowed: letters, digits and -._~+/=, one token a line");
            }
            tokens.add(line);
        }
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("it holds no token; write one token a line");
        }
        return List.copyOf(tokens);
    }
}
