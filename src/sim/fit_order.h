// A private header (src/sim): waiting jobs kept in a scheduling order, with the search a filling scheduler needs —
// the first job at or after a given place that fits in the processors left (or is suspended, when asked). A filling
// walk (lerwf-fill) otherwise visits every job that does not fit: on CEA-Curie hundreds per call, most of its time.
// An ordered set (red-black tree, libstdc++'s policy-based tree) whose nodes also keep, for their subtree, the
// fewest processors any job needs and whether any job is suspended; the search is one descent, O(log n), like
// insert and erase. Key: ordered by operator<, with fields `int32_t procs` and `bool held`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <functional>

namespace schedlab::sim {

namespace fit_order_detail {

struct Summary {  // of a subtree
  int32_t min_procs;
  bool any_held;
};

template <class Cmp>
struct KeyOf;
template <class Key>
struct KeyOf<std::less<Key>> {
  using type = Key;
};

// The tree's node update: keeps each node's Summary, and searches with it. The tree derives from it.
template <class NodeCItr, class NodeItr, class Cmp, class Alloc>
class FitUpdate {
 public:
  using metadata_type = Summary;
  using const_iterator = typename NodeCItr::value_type;

 private:
  using Key = typename KeyOf<Cmp>::type;

  static bool fits(const Key& k, int32_t free, bool want_held) { return k.procs <= free || (k.held && want_held); }
  static bool any_fits(const Summary& s, int32_t free, bool want_held) {
    return s.min_procs <= free || (s.any_held && want_held);
  }


 public:
  // The first job not before `from` that fits, or false. The descent to from's place passes the nodes not before it
  // (pushed, shallowest first); the jobs after `from` in order are then: the deepest pushed node, its right subtree,
  // the next pushed node, its right subtree, and so on.
  bool find_fit(const Key& from, int32_t free, bool want_held, const_iterator& found) const {
    const NodeCItr end = node_end();
    NodeCItr path[2 * 64];  // a red-black tree of n nodes is at most 2 log2(n + 1) deep
    size_t depth = 0;
    for (NodeCItr it = node_begin(); it != end;) {
      if (**it < from) {
        it = it.get_r_child();
      } else {
        path[depth++] = it;
        it = it.get_l_child();
      }
    }
    while (depth > 0) {
      const NodeCItr it = path[--depth];
      if (fits(**it, free, want_held)) {
        found = *it;
        return true;
      }
      NodeCItr sub = it.get_r_child();
      if (sub == end || !any_fits(sub.get_metadata(), free, want_held)) continue;
      for (;;) {  // the subtree holds a fit: the leftmost one
        const NodeCItr left = sub.get_l_child();
        if (left != end && any_fits(left.get_metadata(), free, want_held)) {
          sub = left;
        } else if (fits(**sub, free, want_held)) {
          found = *sub;
          return true;
        } else {
          sub = sub.get_r_child();
        }
      }
    }
    return false;
  }

 protected:
  void operator()(NodeItr it, NodeCItr end) const {
    const Key& k = **it;
    Summary s{k.procs, k.held};
    for (const NodeCItr child : {NodeCItr(it.get_l_child()), NodeCItr(it.get_r_child())}) {
      if (child == end) continue;
      s.min_procs = std::min(s.min_procs, child.get_metadata().min_procs);
      s.any_held = s.any_held || child.get_metadata().any_held;
    }
    const_cast<Summary&>(it.get_metadata()) = s;
  }


 private:
  virtual NodeCItr node_begin() const = 0;
  virtual NodeCItr node_end() const = 0;

 protected:
  virtual ~FitUpdate() = default;
};

}  // namespace fit_order_detail

template <class Key>
class FitOrder {
  using Tree = __gnu_pbds::tree<Key, __gnu_pbds::null_type, std::less<Key>, __gnu_pbds::rb_tree_tag,
                                fit_order_detail::FitUpdate>;

 public:
  using const_iterator = typename Tree::const_iterator;

  void insert(const Key& k) { tree_.insert(k); }
  void erase(const Key& k) { tree_.erase(k); }  // by order: only the fields operator< reads matter
  void clear() { tree_.clear(); }
  size_t size() const { return tree_.size(); }
  const_iterator begin() const { return tree_.begin(); }
  const_iterator end() const { return tree_.end(); }

  // The first job not before `from` that needs at most `free` processors, or is suspended if `held_fit`; end().
  const_iterator first_fit(const Key& from, int32_t free, bool held_fit) const {
    const_iterator found = end();
    return tree_.find_fit(from, free, held_fit, found) ? found : end();
  }

 private:
  Tree tree_;
};

}  // namespace schedlab::sim
