package io.weir.testregistry;

import io.apicurio.common.apps.config.DynamicConfigPropertyList;
import java.util.List;
import javax.enterprise.context.ApplicationScoped;
import javax.enterprise.inject.Produces;

/**
 * The bean that Apicurio's config-index extension would generate at build time, whose deployment
 * module is not on Maven Central: the list of settings that may change at run time. Empty: the
 * tests change none.
 */
@ApplicationScoped
public class ConfigIndexShim {

    @Produces
    @ApplicationScoped
    DynamicConfigPropertyList dynamicConfigProperties() {
        return new DynamicConfigPropertyList(List.of());
    }
}
