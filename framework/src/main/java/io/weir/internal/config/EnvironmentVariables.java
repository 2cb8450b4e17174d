package io.weir.internal.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The documented mapping of environment variables to settings: {@code WEIR_<NAME>} sets the
 * setting {@code <name>}, lower case with {@code _} as {@code .} ({@code WEIR_PRODUCER_LINGER_MS}
 * sets {@code producer.linger.ms}), where the setting is a Weir setting or a Kafka client setting,
 * unprefixed or with a client prefix ({@link ClientSettings#isKnown}). {@value #CONFIG_FILE} names
 * the deployment's properties file and is not a setting.
 *
 * <p>Every other {@code WEIR_*} variable is ignored, with one WARN listing the names (never the
 * values, which may be secrets): platforms inject variables of their own under the same prefix.
 * Kubernetes, for one, defines {@code <SERVICE>_SERVICE_HOST}, {@code <SERVICE>_PORT},
 * {@code <SERVICE>_PORT_8080_TCP_ADDR} and more for every Service, so a Service named
 * {@code weir-x} yields {@code WEIR_X_SERVICE_HOST}. Failing on them would stop every instance
 * because of an unrelated Service.
 */
final class EnvironmentVariables {

    static final String PREFIX = "WEIR_";
    static final String CONFIG_FILE = "WEIR_CONFIG_FILE";

    private static final Logger LOG = LoggerFactory.getLogger(EnvironmentVariables.class);
    private static final Pattern DOCUMENTED_FORM = Pattern.compile("WEIR_[A-Z0-9]+(_[A-Z0-9]+)*");
    /**
     * A service link's value ({@code tcp://10.0.0.1:8080}): Kubernetes sets {@code <SERVICE>_PORT}
     * so, and a Service named {@code weir-http} yields {@code WEIR_HTTP_PORT}, which has the form of
     * the setting {@code http.port}. No setting's value has this form.
     */
    private static final Pattern SERVICE_LINK = Pattern.compile("(?i)(tcp|udp|sctp)://.*");

    private EnvironmentVariables() {}

    /** The settings {@code environment} sets, and the {@code WEIR_*} variables it ignored (sorted). */
    record Mapping(Map<String, String> settings, SortedSet<String> ignored) {}

    /**
     * Maps the {@code WEIR_*} variables of {@code environment} to settings and logs one WARN if it
     * ignored any. Variables without the prefix, and {@value #CONFIG_FILE}, are not looked at.
     */
    static Mapping map(Map<String, String> environment) {
        Map<String, String> settings = new LinkedHashMap<>();
        SortedSet<String> ignored = new TreeSet<>();
        environment.forEach((variable, value) -> {
            if (!variable.startsWith(PREFIX) || variable.equals(CONFIG_FILE)) {
                return;
            }
            String name = settingName(variable);
            if (DOCUMENTED_FORM.matcher(variable).matches()
                    && ClientSettings.isKnown(name)
                    && !SERVICE_LINK.matcher(value.trim()).matches()) {
                settings.put(name, value);
            } else {
                ignored.add(variable);
            }
        });
        if (!ignored.isEmpty()) {
            LOG.warn(
                    "Ignoring environment variables {}: not WEIR_<NAME> for a Weir or Kafka client setting, or a"
                            + " service link (tcp://...); see docs/configuration.md, section Environment variables",
                    String.join(", ", ignored));
        }
        return new Mapping(Collections.unmodifiableMap(settings), Collections.unmodifiableSortedSet(ignored));
    }

    /** {@code WEIR_PRODUCER_LINGER_MS} to {@code producer.linger.ms}. */
    static String settingName(String variable) {
        return variable.substring(PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
    }
}
