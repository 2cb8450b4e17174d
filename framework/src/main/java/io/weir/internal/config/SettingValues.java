package io.weir.internal.config;

import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parsed, validated value of every setting of one configuration. Settings are resolved in
 * declaration order ({@link Settings#ALL}): each takes its raw value, else its default, else its
 * derived default (which reads settings declared before it); then the checks reported on it
 * ({@link Settings#CHECKS}) run. The first invalid value or broken rule fails with a
 * {@link io.weir.errors.ConfigException} naming its setting. Immutable once resolved.
 */
public final class SettingValues {

    private final Map<Setting<?>, Object> values = new IdentityHashMap<>();

    private SettingValues() {}

    /**
     * Resolves every Weir setting from the raw values of all sources (names that are not Weir
     * settings are ignored).
     *
     * @throws io.weir.errors.ConfigException naming the first missing or invalid setting
     */
    public static SettingValues resolve(Map<String, String> raw) {
        return resolve(Settings.ALL.values(), Settings.CHECKS, raw);
    }

    static SettingValues resolve(Collection<Setting<?>> settings, List<SettingCheck> checks, Map<String, String> raw) {
        for (SettingCheck c : checks) {
            if (!settings.contains(c.setting())) {
                throw new IllegalArgumentException(
                        "a check reports on " + c.setting().name() + ", not declared");
            }
        }
        SettingValues resolved = new SettingValues();
        for (Setting<?> s : settings) {
            resolved.values.put(s, s.resolve(raw.get(s.name()), resolved));
            for (SettingCheck c : checks) {
                if (c.setting() == s) {
                    c.verify(resolved);
                }
            }
        }
        return resolved;
    }

    /**
     * The value of {@code setting}.
     *
     * @throws IllegalStateException if it is not resolved (yet): a derived default or check read a
     *                               setting declared after its own
     */
    public <T> T get(Setting<T> setting) {
        Object v = values.get(setting);
        if (v == null) {
            throw new IllegalStateException(setting.name() + " is read before it has a value: a derived default or"
                    + " check may read only settings declared before its own");
        }
        @SuppressWarnings("unchecked")
        T t = (T) v;
        return t;
    }
}
