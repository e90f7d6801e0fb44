/* Test aid: print SimGrid's route between every pair of hosts of a platform,
 * one line each: "SRC DST LINK...", so tests/sim/check_routes.py can compare
 * them with the routes sim/platgen.py intends. */
#include <simgrid/s4u.hpp>
#include <cstdio>

int main(int argc, char** argv)
{
  simgrid::s4u::Engine e(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PLATFORM.xml\n", argv[0]);
    return 2;
  }
  e.load_platform(argv[1]);
  e.seal_platform(); // Dijkstra numbers its graph when sealed
  std::vector<simgrid::s4u::Host*> hosts = e.get_all_hosts();
  for (auto const* a : hosts)
    for (auto const* b : hosts) {
      if (a == b)
        continue;
      std::vector<simgrid::s4u::Link*> links;
      double lat = 0;
      a->route_to(b, links, &lat);
      std::printf("%s %s", a->get_cname(), b->get_cname());
      for (auto const* l : links)
        std::printf(" %s", l->get_cname());
      std::printf("\n");
    }
  return 0;
}
