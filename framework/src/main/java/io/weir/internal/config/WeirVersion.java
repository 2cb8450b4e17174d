package io.weir.internal.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Weir's version as Maven built it ({@code io/weir/version.properties}), for {@code /info}, the
 * recorded topology, savepoint manifests and {@code weir --version}; {@code unknown} when the file
 * is missing or was not filtered (an IDE build).
 */
public final class WeirVersion {

    private static final String CURRENT = read();

    private WeirVersion() {}

    public static String current() {
        return CURRENT;
    }

    private static String read() {
        try (InputStream in = WeirVersion.class.getResourceAsStream("/io/weir/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }
}
