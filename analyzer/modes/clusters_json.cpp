#include "modes/clusters_json.h"

#include <cmath>

namespace modeaudit {

Json clusters_to_json(const ModeSet& modes) {
    if (modes.clusters.size() <= 1) return Json(nullptr);
    Json out;
    const double product = modes.global_mode_count();
    // Beyond a double's range (over a thousand binary switches) the product
    // is given as its decimal logarithm only.
    if (std::isfinite(product))
        out["global_modes"] = product;
    else
        out["global_modes"] = nullptr;
    double log10_product = 0;
    bool complete = true;
    for (const SwitchingCluster& c : modes.clusters) {
        log10_product += std::log10(static_cast<double>(std::max<std::size_t>(c.local_modes, 1)));
        complete = complete && c.complete;
    }
    out["global_modes_log10"] = log10_product;
    out["complete"] = complete;
    Json list = Json::array();
    for (const SwitchingCluster& c : modes.clusters) {
        Json jc;
        Json names = Json::array();
        for (int v : c.mode_variables) names.push_back(modes.mode_variables[static_cast<std::size_t>(v)].name);
        jc["mode_variables"] = names;
        jc["local_modes"] = c.local_modes;
        jc["complete"] = c.complete;
        list.push_back(jc);
    }
    out["clusters"] = list;
    return out;
}

}  // namespace modeaudit
