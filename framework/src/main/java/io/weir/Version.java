package io.weir;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Weir's version, as Maven built it (from {@code io/weir/version.properties}). */
final class Version {

    static final String WEIR = read();

    private Version() {
    }

    private static String read() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            // Unfiltered (an IDE build that skipped Maven's resource filtering): say so rather than print a placeholder.
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }
}
