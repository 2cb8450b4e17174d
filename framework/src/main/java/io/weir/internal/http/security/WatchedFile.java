package io.weir.internal.http.security;

import io.weir.errors.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value read from a file and read again when the file's content changes: a certificate renewed
 * in place, a token rotated in a mounted Secret. Content is compared, not modification times:
 * a Secret volume swaps a symbolic link, and a file rewritten within one tick of the clock keeps
 * its time.
 *
 * <p>A change that cannot be read or parsed keeps the previous value and logs one WARN naming the
 * setting (once per bad content, not once per check). The first read happens at construction and
 * fails with a {@link ConfigException} instead: a bad file must stop the start, not be served.
 *
 * <p>Threading: {@link #refresh} on one thread at a time (the reload thread); {@link #current}
 * from any thread.
 */
final class WatchedFile<T> {

    private static final Logger log = LoggerFactory.getLogger(WatchedFile.class);

    private final String setting;
    private final Path path;
    private final Function<byte[], T> parse;
    private volatile T current;
    private byte[] digest;
    private byte[] refusedDigest;

    /**
     * Reads and parses {@code path} now.
     *
     * @param parse throws {@link IllegalArgumentException} saying why content is unusable (never quoting it)
     * @throws ConfigException naming {@code setting} if the file cannot be read or parsed
     */
    WatchedFile(String setting, Path path, Function<byte[], T> parse) {
        this.setting = setting;
        this.path = path;
        this.parse = parse;
        byte[] content;
        try {
            content = Files.readAllBytes(path);
        } catch (IOException e) {
            throw (ConfigException) new ConfigException(setting, "cannot read " + path + " (" + e + ")").initCause(e);
        }
        try {
            this.current = parse.apply(content);
        } catch (IllegalArgumentException e) {
            throw (ConfigException) new ConfigException(setting, path + ": " + e.getMessage()).initCause(e);
        }
        this.digest = sha256(content);
    }

    T current() {
        return current;
    }

    /** Reads the file again; true if it changed and its new content is now the value. */
    boolean refresh() {
        byte[] content;
        try {
            content = Files.readAllBytes(path);
        } catch (IOException e) {
            // A Secret volume is briefly without its file while the link is swapped: try again next time.
            return false;
        }
        byte[] d = sha256(content);
        if (Arrays.equals(d, digest) || Arrays.equals(d, refusedDigest)) {
            return false;
        }
        try {
            current = parse.apply(content);
        } catch (IllegalArgumentException e) {
            refusedDigest = d;
            log.warn(
                    "{}: the new content of {} is not usable ({}); keeping the previous one until it is fixed",
                    setting,
                    path,
                    e.getMessage());
            return false;
        }
        digest = d;
        refusedDigest = null;
        log.info("{}: re-read {}, which changed", setting, path);
        return true;
    }

    /** SHA-256 of {@code content}: what {@link #refresh} compares, and what tokens are compared by. */
    static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
